/**
 * Test helper: every Thrift struct of a Parquet file (its FileMetaData, each column chunk's page
 * headers, each offset index) read field by field in the Compact Protocol and checked against the
 * types parquet.thrift declares (apache/parquet-format, src/main/thrift/parquet.thrift): a field of
 * another wire type than declared (an i32 where an i8 is, as hyparquet-writer 0.17 wrote IntType's
 * bitWidth) is what a strict reader skips, and then misses if it is required. Lenient readers
 * (hyparquet) read on regardless, so only this and a strict reader (DuckDB) see it.
 * Each problem is a line naming the struct's path and the field.
 */

/** A declared type: a scalar, a list of a type, or a struct (or union) by name. */
type Declared = 'bool' | 'i8' | 'i16' | 'i32' | 'i64' | 'double' | 'binary' | { list: Declared } | { struct: string };
/** A struct's fields by id: [name, type, required]. */
type Fields = Record<number, [string, Declared, boolean?]>;

const S = (struct: string): Declared => ({ struct });
const L = (list: Declared): Declared => ({ list });
const EMPTY: Fields = {};
const REQ = true;

/** The structs an export's file may hold, as parquet.thrift declares them (enums are i32). */
const STRUCTS: Record<string, Fields> = {
  FileMetaData: { 1: ['version', 'i32', REQ], 2: ['schema', L(S('SchemaElement')), REQ], 3: ['num_rows', 'i64', REQ], 4: ['row_groups', L(S('RowGroup')), REQ], 5: ['key_value_metadata', L(S('KeyValue'))], 6: ['created_by', 'binary'], 7: ['column_orders', L(S('ColumnOrder'))] },
  SchemaElement: { 1: ['type', 'i32'], 2: ['type_length', 'i32'], 3: ['repetition_type', 'i32'], 4: ['name', 'binary', REQ], 5: ['num_children', 'i32'], 6: ['converted_type', 'i32'], 7: ['scale', 'i32'], 8: ['precision', 'i32'], 9: ['field_id', 'i32'], 10: ['logicalType', S('LogicalType')] },
  LogicalType: { 1: ['STRING', S('Empty')], 2: ['MAP', S('Empty')], 3: ['LIST', S('Empty')], 4: ['ENUM', S('Empty')], 5: ['DECIMAL', S('DecimalType')], 6: ['DATE', S('Empty')], 7: ['TIME', S('TimeType')], 8: ['TIMESTAMP', S('TimeType')], 10: ['INTEGER', S('IntType')], 11: ['UNKNOWN', S('Empty')], 12: ['JSON', S('Empty')], 13: ['BSON', S('Empty')], 14: ['UUID', S('Empty')], 15: ['FLOAT16', S('Empty')] },
  Empty: EMPTY,
  DecimalType: { 1: ['scale', 'i32', REQ], 2: ['precision', 'i32', REQ] },
  TimeType: { 1: ['isAdjustedToUTC', 'bool', REQ], 2: ['unit', S('TimeUnit'), REQ] },
  TimeUnit: { 1: ['MILLIS', S('Empty')], 2: ['MICROS', S('Empty')], 3: ['NANOS', S('Empty')] },
  IntType: { 1: ['bitWidth', 'i8', REQ], 2: ['isSigned', 'bool', REQ] },
  KeyValue: { 1: ['key', 'binary', REQ], 2: ['value', 'binary'] },
  ColumnOrder: { 1: ['TYPE_ORDER', S('Empty')], 2: ['IEEE_754_TOTAL_ORDER', S('Empty')] },
  RowGroup: { 1: ['columns', L(S('ColumnChunk')), REQ], 2: ['total_byte_size', 'i64', REQ], 3: ['num_rows', 'i64', REQ], 4: ['sorting_columns', L(S('SortingColumn'))], 5: ['file_offset', 'i64'], 6: ['total_compressed_size', 'i64'], 7: ['ordinal', 'i16'] },
  SortingColumn: { 1: ['column_idx', 'i32', REQ], 2: ['descending', 'bool', REQ], 3: ['nulls_first', 'bool', REQ] },
  ColumnChunk: { 1: ['file_path', 'binary'], 2: ['file_offset', 'i64', REQ], 3: ['meta_data', S('ColumnMetaData')], 4: ['offset_index_offset', 'i64'], 5: ['offset_index_length', 'i32'], 6: ['column_index_offset', 'i64'], 7: ['column_index_length', 'i32'], 9: ['encrypted_column_metadata', 'binary'] },
  ColumnMetaData: {
    1: ['type', 'i32', REQ], 2: ['encodings', L('i32'), REQ], 3: ['path_in_schema', L('binary'), REQ], 4: ['codec', 'i32', REQ], 5: ['num_values', 'i64', REQ], 6: ['total_uncompressed_size', 'i64', REQ], 7: ['total_compressed_size', 'i64', REQ],
    8: ['key_value_metadata', L(S('KeyValue'))], 9: ['data_page_offset', 'i64', REQ], 10: ['index_page_offset', 'i64'], 11: ['dictionary_page_offset', 'i64'], 12: ['statistics', S('Statistics')], 13: ['encoding_stats', L(S('PageEncodingStats'))],
    14: ['bloom_filter_offset', 'i64'], 15: ['bloom_filter_length', 'i32'], 16: ['size_statistics', S('SizeStatistics')],
  },
  Statistics: { 1: ['max', 'binary'], 2: ['min', 'binary'], 3: ['null_count', 'i64'], 4: ['distinct_count', 'i64'], 5: ['max_value', 'binary'], 6: ['min_value', 'binary'], 7: ['is_max_value_exact', 'bool'], 8: ['is_min_value_exact', 'bool'], 9: ['nan_count', 'i64'] },
  PageEncodingStats: { 1: ['page_type', 'i32', REQ], 2: ['encoding', 'i32', REQ], 3: ['count', 'i32', REQ] },
  SizeStatistics: { 1: ['unencoded_byte_array_data_bytes', 'i64'], 2: ['repetition_level_histogram', L('i64')], 3: ['definition_level_histogram', L('i64')] },
  PageHeader: { 1: ['type', 'i32', REQ], 2: ['uncompressed_page_size', 'i32', REQ], 3: ['compressed_page_size', 'i32', REQ], 4: ['crc', 'i32'], 5: ['data_page_header', S('DataPageHeader')], 7: ['dictionary_page_header', S('DictionaryPageHeader')], 8: ['data_page_header_v2', S('DataPageHeaderV2')] },
  DataPageHeader: { 1: ['num_values', 'i32', REQ], 2: ['encoding', 'i32', REQ], 3: ['definition_level_encoding', 'i32', REQ], 4: ['repetition_level_encoding', 'i32', REQ], 5: ['statistics', S('Statistics')] },
  DictionaryPageHeader: { 1: ['num_values', 'i32', REQ], 2: ['encoding', 'i32', REQ], 3: ['is_sorted', 'bool'] },
  DataPageHeaderV2: { 1: ['num_values', 'i32', REQ], 2: ['num_nulls', 'i32', REQ], 3: ['num_rows', 'i32', REQ], 4: ['encoding', 'i32', REQ], 5: ['definition_levels_byte_length', 'i32', REQ], 6: ['repetition_levels_byte_length', 'i32', REQ], 7: ['is_compressed', 'bool'], 8: ['statistics', S('Statistics')] },
  OffsetIndex: { 1: ['page_locations', L(S('PageLocation')), REQ], 2: ['unencoded_byte_array_data_bytes', L('i64')] },
  PageLocation: { 1: ['offset', 'i64', REQ], 2: ['compressed_page_size', 'i32', REQ], 3: ['first_row_index', 'i64', REQ] },
};

/** The Compact Protocol's wire types. */
const WIRE: Record<string, number[]> = { bool: [1, 2], i8: [3], i16: [4], i32: [5], i64: [6], double: [7], binary: [8], list: [9], struct: [12] };
const UNIONS = new Set(['LogicalType', 'TimeUnit', 'ColumnOrder']);

/** A Compact Protocol reader of one buffer, collecting the problems it finds against the declared types. */
class Checker {
  at = 0;
  readonly problems: string[] = [];
  constructor(readonly b: Uint8Array) {}

  varint(): bigint {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const x = this.b[this.at++];
      if (x === undefined) throw new Error('Thrift data ends inside a varint');
      v |= BigInt(x & 0x7f) << shift;
      if (x < 0x80) return v;
    }
  }

  zigzag(): bigint {
    const v = this.varint();
    return (v >> 1n) ^ -(v & 1n);
  }

  /** Reads a struct declared as `name` (the path names it in problems); its fields' values by name where scalar. */
  struct(name: string, path: string): Map<string, bigint> {
    const fields = STRUCTS[name];
    const seen = new Map<string, bigint>();
    const ids = new Set<number>();
    for (let last = 0; ;) {
      const head = this.b[this.at++];
      if (head === 0) break;
      const type = head & 0x0f;
      const id = head >> 4 === 0 ? Number(this.zigzag()) : last + (head >> 4);
      last = id;
      ids.add(id);
      const field = fields[id];
      if (field === undefined) {
        this.problems.push(`${path}: field ${id} not in parquet.thrift's ${name}`);
        this.skip(type);
        continue;
      }
      const value = this.value(field[1], type, `${path}.${field[0]}`);
      if (value !== undefined) seen.set(field[0], value);
    }
    for (const [id, [field, , required]] of Object.entries(fields)) if (required === true && !ids.has(Number(id))) this.problems.push(`${path}: required ${name}.${field} missing`);
    if (UNIONS.has(name) && ids.size !== 1) this.problems.push(`${path}: union ${name} with ${ids.size} fields set`);
    return seen;
  }

  value(declared: Declared, type: number, path: string): bigint | undefined {
    const kind = typeof declared === 'string' ? declared : 'list' in declared ? 'list' : 'struct';
    if (!WIRE[kind].includes(type)) {
      this.problems.push(`${path}: wire type ${type}, parquet.thrift declares ${kind}`);
      this.skip(type);
      return undefined;
    }
    if (typeof declared === 'object' && 'struct' in declared) {
      this.struct(declared.struct, path);
      return undefined;
    }
    if (typeof declared === 'object') {
      this.list(declared.list, path);
      return undefined;
    }
    return this.scalar(type);
  }

  list(element: Declared, path: string): void {
    const head = this.b[this.at++];
    const size = head >> 4 === 15 ? Number(this.varint()) : head >> 4;
    const type = head & 0x0f;
    for (let i = 0; i < size; i++) {
      // A list's booleans are one byte each, whatever the element type says.
      if (type === 1 || type === 2) {
        if (element !== 'bool') this.problems.push(`${path}[${i}]: a bool, parquet.thrift declares another type`);
        this.at++;
      } else this.value(element, type, `${path}[${i}]`);
    }
  }

  scalar(type: number): bigint | undefined {
    if (type === 1 || type === 2) return type === 1 ? 1n : 0n;
    if (type === 3) return BigInt(this.b[this.at++]);
    if (type === 4 || type === 5 || type === 6) return this.zigzag();
    if (type === 7) this.at += 8;
    else if (type === 8) {
      // The length first: `this.at += …` would add it to the offset before the length's varint.
      const length = Number(this.varint());
      this.at += length;
    }
    return undefined;
  }

  skip(type: number): void {
    if (type === 9) {
      const head = this.b[this.at++];
      const size = head >> 4 === 15 ? Number(this.varint()) : head >> 4;
      for (let i = 0; i < size; i++) this.skip(head & 0x0f);
    } else if (type === 12) {
      for (;;) {
        const head = this.b[this.at++];
        if (head === 0) return;
        // A field id given in full follows its type: read past it.
        if (head >> 4 === 0) this.zigzag();
        this.skip(head & 0x0f);
      }
    } else this.scalar(type);
  }
}

/**
 * The problems of a Parquet file's Thrift structs against parquet.thrift: its footer's, each column
 * chunk's page headers' (found by hyparquet's reading of the footer: `chunks`, the chunks' byte
 * ranges) and each offset index's. Empty when every field is of its declared type and every
 * required field is there.
 */
export function thriftProblems(file: Uint8Array, chunks: { start: number; length: number; offsetIndex?: [number, number] }[]): string[] {
  const footerLength = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const footer = new Checker(file.subarray(file.length - 8 - footerLength, file.length - 8));
  footer.struct('FileMetaData', 'FileMetaData');
  const problems = [...footer.problems];
  chunks.forEach((chunk, c) => {
    const pages = new Checker(file);
    pages.at = chunk.start;
    for (let p = 0; pages.at < chunk.start + chunk.length; p++) {
      const header = pages.struct('PageHeader', `chunk ${c} page ${p}`);
      pages.at += Number(header.get('compressed_page_size') ?? 0n);
    }
    problems.push(...pages.problems);
    if (chunk.offsetIndex) {
      const index = new Checker(file.subarray(chunk.offsetIndex[0], chunk.offsetIndex[0] + chunk.offsetIndex[1]));
      index.struct('OffsetIndex', `chunk ${c} OffsetIndex`);
      problems.push(...index.problems);
    }
  });
  return problems;
}
