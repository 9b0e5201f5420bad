/**
 * Byte chunks gathered into Blobs, which the browser keeps outside the page's heap: every FOLD_PARTS
 * chunks, or FOLD_BYTES, are folded into one Blob, so that an export of 50,000 one-row tables
 * (issue 38) holds a hundred Blobs, not one per table (each Blob is registered with the browser
 * process), and one of large tables holds at most FOLD_BYTES on the heap.
 */
const FOLD_PARTS = 512;
const FOLD_BYTES = 4 << 20;

export class BlobParts {
  #parts: Uint8Array<ArrayBuffer>[] = [];
  #folded: Blob[] = [];
  #bytes = 0;

  push(chunk: Uint8Array): void {
    this.#parts.push(chunk as Uint8Array<ArrayBuffer>);
    this.#bytes += chunk.length;
    if (this.#parts.length >= FOLD_PARTS || this.#bytes >= FOLD_BYTES) {
      this.#folded.push(new Blob(this.#parts));
      this.#parts = [];
      this.#bytes = 0;
    }
  }

  /** Everything pushed, as one Blob; the parts are let go. */
  take(type: string): Blob {
    const blob = new Blob([...this.#folded, ...this.#parts], { type });
    this.#parts = [];
    this.#folded = [];
    this.#bytes = 0;
    return blob;
  }
}
