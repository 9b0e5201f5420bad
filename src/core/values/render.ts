/**
 * A field renderer turns the stored bytes of one field into the text the server's SELECT shows.
 * Renderers read straight from the page buffer (no copies) and are chosen once per column.
 */
export type Render = (b: Uint8Array, o: number, len: number) => string;

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).toUpperCase().padStart(2, '0'));

/** Binary values as the mysql client's --binary-as-hex prints them: 0x + uppercase hex. */
export const renderHex: Render = (b, o, len) => {
  let s = '0x';
  for (let i = o; i < o + len; i++) s += HEX[b[i]];
  return s;
};

/** Zero-pads a non-negative integer to `width` digits. */
export function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}

/** ZEROFILL columns: the value left-padded with zeros to the column's display width. */
export function zerofill(render: Render, width: number): Render {
  return (b, o, len) => {
    const s = render(b, o, len);
    return s.length >= width ? s : '0'.repeat(width - s.length) + s;
  };
}
