/**
 * The library's entry for browsers (and any JavaScript runtime with Blob): open an .ibd given as a
 * File, Blob or bytes, list the tables it can be read with, read a table's rows (batches, objects)
 * or count them. Its definition comes from the file itself (MySQL 8), from companion files (.frm,
 * .sql), from one given outright, or is guessed from the records. Node adds paths: node.ts.
 *
 *   const file = await openInnodb(ibdFile, { files: [frmFile] });
 *   const table = await file.table();
 *   for await (const row of table.rows()) console.log(row);
 *   console.log(table.stats.damagedWithheld, 'rows of damaged pages withheld');
 */
import { companionSource, ibdSource, type FileInput, type IbdInput, type OpenInnodbOptions } from './inputs.ts';
import { openSource, type InnodbFile } from './innodb-file.ts';
import { dataFilesSource } from '../core/tablespace/data-files.ts';
import { openPartitionSources, type PartitionedOptions, type PartitionedTable } from './partitioned-table.ts';

export type { FileInput, IbdInput, NamedData, OpenInnodbOptions } from './inputs.ts';
export * from './exports.ts';

/** Opens an .ibd: throws NotInnodbError when it holds no InnoDB page; finds its table definitions. */
export function openInnodb(input: IbdInput, options: OpenInnodbOptions = {}): Promise<InnodbFile> {
  const first = ibdSource(input, options.name);
  return openSource(options.dataFiles ? dataFilesSource([first, ...options.dataFiles.map(companionSource)]) : first, {
    schema: options.schema && companionSource(options.schema),
    files: options.files?.map(companionSource),
    keys: options.keys,
    dictionary: options.dictionary && companionSource(options.dictionary),
  });
}

/**
 * Opens the files of a partitioned table's partitions (Files or named data called t#P#p0.ibd …) as
 * one table; its .par and .frm go in `files` (or the definition in `schema`).
 */
export function openInnodbPartitions(inputs: readonly FileInput[], options: OpenInnodbOptions & PartitionedOptions = {}): Promise<PartitionedTable> {
  return openPartitionSources(inputs.map(companionSource), options.files?.map(companionSource) ?? [], {
    ...options,
    schema: options.schema && companionSource(options.schema),
  });
}
