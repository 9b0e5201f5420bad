/**
 * A spatial value's sort key: the bytes the server stores and compares in `ORDER BY` (4-byte
 * little-endian SRID, then little-endian WKB), made back from the text a cell holds (geometry.ts's
 * `SRID=n;` + WKT, whose coordinates read back as the same doubles). Multipoints list bare
 * coordinates, multi-lines and -polygons parenthesise their parts, collections name their members,
 * as geometry.ts writes them. A cell that is not such a text (`[unreadable: …]`) has no key: the
 * sort is refused rather than place it anywhere.
 */
import type { WeightSink } from './uca-weights.ts';

const KINDS = ['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'];
const view = new DataView(new ArrayBuffer(8));

class WktReader {
  p = 0;
  text = '';
  out: WeightSink = { bytes: new Uint8Array(0), length: 0, reserve: () => 0 };

  reset(text: string, out: WeightSink): void {
    this.text = text;
    this.out = out;
    this.p = 0;
  }

  fail(): never {
    throw new Error(`a value is not a geometry's text (${this.text.slice(0, 60)})`);
  }

  expect(ch: string): void {
    if (this.text[this.p] !== ch) this.fail();
    this.p++;
  }

  next(ch: string): boolean {
    if (this.text[this.p] !== ch) return false;
    this.p++;
    return true;
  }

  uint32(v: number): void {
    const at = this.out.reserve(4);
    this.patch(at, v);
    this.out.length = at + 4;
  }

  patch(at: number, v: number): void {
    const b = this.out.bytes;
    b[at] = v & 0xff;
    b[at + 1] = (v >>> 8) & 0xff;
    b[at + 2] = (v >>> 16) & 0xff;
    b[at + 3] = v >>> 24;
  }

  header(kind: number): void {
    const at = this.out.reserve(5);
    this.out.bytes[at] = 1;
    this.out.length = at + 1;
    this.uint32(kind);
  }

  coordinate(end: string): void {
    let e = this.p;
    while (e < this.text.length && this.text[e] !== end && this.text[e] !== ',' && this.text[e] !== ')') e++;
    const v = Number(this.text.slice(this.p, e));
    if (e === this.p || Number.isNaN(v)) this.fail();
    view.setFloat64(0, v, true);
    const at = this.out.reserve(8);
    for (let i = 0; i < 8; i++) this.out.bytes[at + i] = view.getUint8(i);
    this.out.length = at + 8;
    this.p = e;
  }

  point(): void {
    this.coordinate(' ');
    this.expect(' ');
    this.coordinate(',');
  }

  /** A count, then `item` for each comma-separated item up to the closing parenthesis (not read). */
  list(item: () => void): void {
    const at = this.out.reserve(4);
    this.out.length = at + 4;
    let n = 0;
    if (this.text[this.p] !== ')') {
      do {
        item();
        n++;
      } while (this.next(','));
    }
    this.patch(at, n);
  }

  parenthesised(item: () => void): void {
    this.expect('(');
    item();
    this.expect(')');
  }

  points(): void {
    this.list(() => this.point());
  }

  rings(): void {
    this.list(() => this.parenthesised(() => this.points()));
  }

  /** The body of a geometry of kind `kind` (1-7), inside its parentheses. */
  body(kind: number): void {
    switch (kind) {
      case 1: return this.point();
      case 2: return this.points();
      case 3: return this.rings();
      case 4: return this.list(() => this.member(1));
      case 5: return this.list(() => this.parenthesised(() => this.member(2)));
      case 6: return this.list(() => this.parenthesised(() => this.member(3)));
      default: return this.list(() => this.named());
    }
  }

  /** A part of a multipoint, -line or -polygon: its own header, then its body. */
  member(kind: number): void {
    this.header(kind);
    this.body(kind);
  }

  named(): void {
    if (this.text.startsWith('GEOMETRYCOLLECTION EMPTY', this.p)) {
      this.header(7);
      this.uint32(0);
      this.p += 'GEOMETRYCOLLECTION EMPTY'.length;
      return;
    }
    const open = this.text.indexOf('(', this.p);
    const kind = KINDS.indexOf(this.text.slice(this.p, open)) + 1;
    if (open < 0 || kind === 0) this.fail();
    this.p = open;
    this.header(kind);
    this.parenthesised(() => this.body(kind));
  }
}

/** One reader for all values: a key makes no object. */
const reader = new WktReader();

/** Appends the stored bytes of the geometry whose cell text is `text` to `out`. */
export function geometryKey(text: string, out: WeightSink): void {
  reader.reset(text, out);
  let srid = 0;
  if (text.startsWith('SRID=')) {
    reader.p = 5;
    while (reader.p < text.length && text.charCodeAt(reader.p) >= 0x30 && text.charCodeAt(reader.p) <= 0x39) srid = srid * 10 + text.charCodeAt(reader.p++) - 0x30;
    reader.expect(';');
  }
  reader.uint32(srid);
  reader.named();
  if (reader.p !== text.length) reader.fail();
}
