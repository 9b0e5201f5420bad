/**
 * Spatial values. The server stores a 4-byte little-endian SRID followed by the WKB of the geometry
 * (what a SELECT of the column returns). Cells show it as text people read: the WKT the way MariaDB's
 * ST_AsText() prints it (`POINT(1 2)`, `POLYGON((0 0,1 0,1 1,0 0))`, `MULTIPOINT(1 2,3 4)`,
 * `GEOMETRYCOLLECTION EMPTY`), each coordinate in the shortest digits that read back as the same
 * double, and, when the SRID is not 0, led by it as in PostGIS's EWKT: `SRID=4326;POINT(1 2)`. So the
 * text goes back losslessly (`ST_GeomFromText('POINT(1 2)', 4326)`, output.ts), two differences from
 * ST_AsText kept for that: -0 is `-0` (ST_AsText prints 0), and a coordinate that is not a finite
 * number (which ST_AsText prints as 0) makes the value unreadable. MySQL 8.0 prints multipoints as
 * `MULTIPOINT((1 2),(3 4))` and swaps the axes of geographic SRIDs, which this does not do.
 */
import { gcvt } from './float.ts';
import type { Render } from './render.ts';

const KINDS = ['', 'POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'];
const MAX_DEPTH = 32;

/** A coordinate in the shortest digits that read back as the same double; -0 keeps its sign. */
function coordinateText(v: number): string {
  return Object.is(v, -0) ? '-0' : gcvt(v, 17);
}

/** Reads WKB: each geometry starts with its own byte order (1 = little-endian) and type. */
class WkbReader {
  private readonly view: DataView;
  p: number;

  constructor(b: Uint8Array, o: number, private readonly end: number) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.p = o;
  }

  private need(n: number): void {
    if (this.p + n > this.end) throw new Error(`the geometry ends early (at byte ${this.p})`);
  }

  uint32(little: boolean): number {
    this.need(4);
    const v = this.view.getUint32(this.p, little);
    this.p += 4;
    return v;
  }

  coordinate(little: boolean): string {
    this.need(8);
    const v = this.view.getFloat64(this.p, little);
    this.p += 8;
    if (!Number.isFinite(v)) throw new Error(`coordinate ${v} at byte ${this.p - 8} is not a finite number`);
    return coordinateText(v);
  }

  header(): { little: boolean; kind: number } {
    this.need(1);
    const order = this.view.getUint8(this.p++);
    if (order > 1) throw new Error(`byte ${this.p - 1} is not a WKB byte order`);
    const little = order === 1;
    const kind = this.uint32(little);
    if (kind < 1 || kind >= KINDS.length) throw new Error(`unknown WKB geometry type ${kind}`);
    return { little, kind };
  }

  done(): boolean {
    return this.p === this.end;
  }
}

function points(r: WkbReader, little: boolean): string {
  const n = r.uint32(little);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${r.coordinate(little)} ${r.coordinate(little)}`);
  return out.join(',');
}

function rings(r: WkbReader, little: boolean): string {
  const n = r.uint32(little);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`(${points(r, little)})`);
  return out.join(',');
}

/** The body of one geometry (what follows its type name). */
function body(r: WkbReader, kind: number, little: boolean, depth: number): string {
  if (depth > MAX_DEPTH) throw new Error('the geometry nests too deeply');
  switch (kind) {
    case 1: return `${r.coordinate(little)} ${r.coordinate(little)}`;
    case 2: return points(r, little);
    case 3: return rings(r, little);
    default: {
      const n = r.uint32(little);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) {
        const h = r.header();
        // Collections name each member, multipoints list bare coordinates, multi-lines and
        // -polygons parenthesise their parts.
        if (kind === 7) parts.push(named(r, h.kind, h.little, depth + 1));
        else if (kind === 4) parts.push(body(r, h.kind, h.little, depth + 1));
        else parts.push(`(${body(r, h.kind, h.little, depth + 1)})`);
      }
      return parts.join(',');
    }
  }
}

/** One geometry with its type name; an empty collection is `GEOMETRYCOLLECTION EMPTY`. */
function named(r: WkbReader, kind: number, little: boolean, depth: number): string {
  const inner = body(r, kind, little, depth);
  return kind === 7 && inner === '' ? 'GEOMETRYCOLLECTION EMPTY' : `${KINDS[kind]}(${inner})`;
}

/** WKT of the stored geometry b[o, o+len) (SRID + WKB). Throws an Error for bytes that are not one. */
export function geometryToWkt(b: Uint8Array, o: number, len: number): string {
  if (len < 4 + 5) throw new Error(`${len} bytes are too few for a geometry`);
  const r = new WkbReader(b, o + 4, o + len);
  const { little, kind } = r.header();
  const text = named(r, kind, little, 0);
  if (!r.done()) throw new Error('bytes follow the end of the geometry');
  return text;
}

/**
 * A stored geometry as its cell shows it: WKT, led by `SRID=n;` when n is not 0 (see above); bytes
 * that are not a geometry are `[unreadable: …]`, never a WKT made of them.
 */
export const renderGeometry: Render = (b, o, len) => {
  try {
    const wkt = geometryToWkt(b, o, len);
    const srid = geometrySrid(b, o);
    return srid === 0 ? wkt : `SRID=${srid};${wkt}`;
  } catch (e) {
    return `[unreadable: ${(e as Error).message}]`;
  }
};

/** Bytes of an R-tree record's minimum bounding rectangle (gis0rtree.cc rtr_write_mbr). */
export const MBR_BYTES = 32;

const mbrScratch = new DataView(new ArrayBuffer(MBR_BYTES));

/**
 * A SPATIAL index's MBR — xmin, xmax, ymin, ymax as little-endian doubles (mach_double_write) — as
 * the WKT MariaDB's ST_AsText(ST_Envelope(g)) prints for it: `POLYGON((xmin ymin,xmax ymin,xmax
 * ymax,xmin ymax,xmin ymin))`, a point's and a flat line's too (their corners repeat). A coordinate
 * that is not a finite number makes it unreadable; -0 keeps its sign, as in every geometry cell.
 */
export const renderMbr: Render = (b, o, len) => {
  if (len !== MBR_BYTES) return `[unreadable: an MBR is ${MBR_BYTES} bytes, not ${len}]`;
  for (let i = 0; i < MBR_BYTES; i++) mbrScratch.setUint8(i, b[o + i]);
  const x0 = mbrScratch.getFloat64(0, true);
  const x1 = mbrScratch.getFloat64(8, true);
  const y0 = mbrScratch.getFloat64(16, true);
  const y1 = mbrScratch.getFloat64(24, true);
  if (!Number.isFinite(x0 + x1 + y0 + y1)) return `[unreadable: the MBR's coordinates ${x0}, ${x1}, ${y0}, ${y1} are not all finite numbers]`;
  const [minX, maxX, minY, maxY] = [coordinateText(x0), coordinateText(x1), coordinateText(y0), coordinateText(y1)];
  return `POLYGON((${minX} ${minY},${maxX} ${minY},${maxX} ${maxY},${minX} ${maxY},${minX} ${minY}))`;
};

/** The SRID of a stored geometry. */
export function geometrySrid(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
