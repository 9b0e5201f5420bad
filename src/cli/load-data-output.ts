/**
 * `--csv-for load-data -o FILE`: the CSV written through loadDataEscaped (every chunk the CLI writes
 * is whole lines: the header, runs of rows, partial rows), and FILE.load.sql beside it, the LOAD DATA
 * statement (core/writers/load-data.ts). TIMESTAMP values are shown in UTC, which the statement sets.
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Writable } from 'node:stream';
import { loadDataEscaped, loadDataStatement } from '../core/writers/load-data.ts';
import type { TableDef } from '../core/schema.ts';

/** Writes each chunk to `to` with LOAD DATA's escapes; ending it ends `to` (and waits for it). */
export class LoadDataOut extends Writable {
  constructor(readonly to: Writable) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.to.write(loadDataEscaped(chunk))) done();
    else this.to.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    this.to.end(() => done());
  }
}

/** Where the statement goes: FILE with `.load.sql` for its `.csv` (or after its name). */
export function statementPath(csvFile: string): string {
  return csvFile.replace(/\.csv$/i, '') + '.load.sql';
}

/** Writes the LOAD DATA statement of `csvFile` (the table's rows, `columns`) beside it; its path. */
export async function writeLoadData(table: TableDef, columns: readonly string[], csvFile: string): Promise<string> {
  const path = statementPath(csvFile);
  await writeFile(path, loadDataStatement(table, columns, basename(csvFile)));
  return path;
}
