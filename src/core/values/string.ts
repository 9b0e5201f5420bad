/**
 * Character and binary string columns. Text is decoded with one shared decoder per charset;
 * CHAR values lose their trailing pad spaces, as the server's SELECT shows them.
 */
import { asciiCompatible, decoderFor } from './charset.ts';
import { renderHex, type Render } from './render.ts';

/** 7-bit text is by far the most common; building it directly is faster than a TextDecoder call. */
function asciiOrNull(b: Uint8Array, o: number, len: number): string | null {
  if (len > 64) return null;
  let s = '';
  for (let i = o; i < o + len; i++) {
    const c = b[i];
    if (c >= 0x80) return null;
    s += String.fromCharCode(c);
  }
  return s;
}

export function textRenderer(charset: string, padded: boolean): Render {
  const decoder = decoderFor(charset);
  if (decoder === null) return renderHex;
  const decode: Render = asciiCompatible(charset) ? (b, o, len) => asciiOrNull(b, o, len) ?? decoder(b, o, len) : decoder;
  if (!padded) return decode;
  return (b, o, len) => decode(b, o, len).replace(/ +$/, '');
}
