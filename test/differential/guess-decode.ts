/**
 * What the guess tests share (test/guess.test.ts, guess-wide.test.ts): an .ibd on disk guessed with no
 * definition, and decoded with a table (the guess, or a corrected one) into rows and the reader's problems.
 */
import { guessColumns, type GuessResult } from '../../src/core/definitions/guess/index.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { fileSource } from '../../src/node/file-source.ts';

export async function guessFile(ibd: string, name: string): Promise<GuessResult> {
  const source = await fileSource(ibd);
  try {
    return await guessColumns(await Tablespace.open(source), name);
  } finally {
    await source.close();
  }
}

export async function decodeRows(ibd: string, table: TableDef): Promise<{ rows: Row[]; problems: string[] }> {
  const source = await fileSource(ibd);
  try {
    const reader = await openTable(source, table);
    const rows: Row[] = [];
    for await (const batch of reader.rows()) rows.push(...batch);
    return { rows, problems: reader.stats.problems.map((p) => p.message) };
  } finally {
    await source.close();
  }
}
