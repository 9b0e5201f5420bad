/**
 * The .zip of "Export all tables" where the browser cannot write into a folder, built with fflate's
 * streaming Zip: every entry STORED (ZipPassThrough: compressing would cost the page's main thread
 * time for a download that stays on the same disk), UTF-8 names. fflate hands the archive over in
 * chunks as entries are added; they are folded into Blobs (BlobParts), which the browser keeps
 * outside the page's heap. fflate writes no ZIP64, hence the limits `add` checks with a plain-language error.
 */
import { Zip, ZipPassThrough } from 'fflate';
import { BlobParts } from './blob-parts.ts';

const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

export class ZipWriter {
  readonly #parts = new BlobParts();
  #entries = 0;
  #size = 0;
  #error: Error | null = null;
  readonly #zip = new Zip((err, chunk) => {
    if (err) {
      this.#error = err;
      return;
    }
    this.#parts.push(chunk);
  });

  get entries(): number {
    return this.#entries;
  }

  /** Bytes of file data added so far. */
  get size(): number {
    return this.#size;
  }

  /** Adds one file (`name` may hold folders, `/`-separated). */
  add(name: string, data: Uint8Array): void {
    if (this.#entries >= MAX_ENTRIES) throw new Error(`A .zip without ZIP64 holds at most ${MAX_ENTRIES} files.`);
    // each entry also costs its headers (~80 bytes + the name twice)
    if (this.#size + data.length + 128 * (this.#entries + 1) > MAX_BYTES) {
      throw new Error('The tables add up to more than 4 GiB, too much for one .zip: export them into a folder (Chrome, Edge) or one at a time.');
    }
    const entry = new ZipPassThrough(name);
    this.#zip.add(entry);
    entry.push(data, true);
    this.#entries++;
    this.#size += data.length;
    this.#check();
  }

  /** The whole archive. The writer cannot be used afterwards. */
  finish(type = 'application/zip'): Blob {
    this.#zip.end();
    this.#check();
    return this.#parts.take(type);
  }

  #check(): void {
    if (this.#error) throw new Error(`The .zip could not be written: ${this.#error.message}`);
  }
}
