/**
 * What both library entries (index.ts, node.ts) export besides openInnodb: the file and table
 * handles, their errors, the row modes, reading a RowBatch, loading encryption keys, and a datadir's
 * undo logs (its transactions, the versions of rows before one).
 */
export type { InnodbFile, GuessedEntry, LiveRowCount } from './innodb-file.ts';
export type { InnodbTable, RowCount, RowObject, TableOptions } from './innodb-table.ts';
export { PARTITION_COLUMN, type Partition, type PartitionedOptions, type PartitionedTable } from './partitioned-table.ts';
export { NoDefinitionError, TableChoiceError, type TableEntry } from './definitions.ts';
export type { DictColumn } from '../core/definitions/dictionary/dict-columns.ts';
export type { DictField, DictIndex, DictTable, Dictionary } from '../core/definitions/dictionary/dict-tables.ts';
export type { DroppedIndex } from '../core/readers/dropped-indexes.ts';
export { IbdError, NotInnodbError } from '../core/errors.ts';
export { DefinitionMismatch, ROW_STATE_COLUMN, type DecodeStats, type KeyLookup, type KeyRange, type Problem, type RowMode, type RowState, type TableInfo } from '../core/readers/table-reader.ts';
export { ROW_MODES } from '../core/readers/row-state.ts';
export { batchRows, cellText, type RowBatch } from '../core/values/row-batch.ts';
export { loadKeyFile, parseMysqlKeyring, type EncryptionKeys } from '../core/tablespace/encryption.ts';
export type { TableDef, Column, IndexDef } from '../core/schema.ts';
export type { JsonOptions } from '../core/writers/json-values.ts';
export type { TablespaceSummary } from '../core/readers/summary.ts';
export { openDatadirUndo, openUndoSources, takenBack, takenBackLines, transactionsOf, type DatadirUndo, type DatadirUndoFiles, type RowVersions, type TableChanges, type TakenBack, type TransactionInfo, type TrxState, type UndoSources } from './datadir-undo.ts';
