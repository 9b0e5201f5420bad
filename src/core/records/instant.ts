/**
 * Tables altered with ALGORITHM=INSTANT: records no longer all have the fields the table definition
 * gives, so the clustered index layout is completed with what the file records about the ALTERs.
 *
 * MariaDB 10.3+ (btr0cur.cc btr_cur_instant_init_low, rem0rec.cc, dict0mem.cc):
 *  - the clustered index root has page type 18 (FIL_PAGE_TYPE_INSTANT; Tablespace presents it as an
 *    INDEX page) and PAGE_INSTANT (page header bytes 12-13, above the 3 direction bits) gives
 *    n_core_fields: the fields every record has;
 *  - the first record of the leftmost leaf is a hidden metadata record (info bit MIN_REC, status
 *    REC_STATUS_INSTANT): its fields beyond n_core_fields hold the default values of the added
 *    columns;
 *  - a COMPACT record with status REC_STATUS_INSTANT (4) stores after its 5-byte header the number of
 *    fields it has beyond n_core_fields, minus one (1 byte, or 2 when ≥ 128); an ordinary record has
 *    exactly n_core_fields, with a null bitmap sized for them; REDUNDANT records give their field
 *    count in the header;
 *  - 10.4+ instant DROP COLUMN and ADD COLUMN ... FIRST/AFTER: the metadata record is also delete-
 *    marked and carries, right after DB_ROLL_PTR, a 20-byte reference to a BLOB page holding the
 *    physical order of the non-key fields: a 4-byte count, then 2 bytes per field, either the index of
 *    the table column it holds (bits 0-9) or, with bit 15 set, a dropped column's storage (bit 14
 *    NOT NULL; bits 0-9: 0 variable ≤ 255 bytes, 1 variable longer, else fixed length + 1). Dropped
 *    columns stay in older records (skipped); added columns are appended physically. The root's
 *    infimum and supremum are then zero, supremum byte 7 giving the null bitmap size of ordinary records.
 *
 * MySQL 8.0 (from the documented record format; see the README): records with info bit 0x80
 * (8.0.12-8.0.28 instant ADD) store their field count after the header (1 byte, or 2 with bit 0x80 of
 * the first); records with info bit 0x40 (8.0.29+ row versions) store their row version (1 byte),
 * and hold the fields added at or before that version and not dropped at or before it, in physical
 * order. Versions, physical positions and defaults come from the SDI's column se_private_data.
 */
import { checkedFields, type FieldChecks, type FieldSpec } from './field-spec.ts';

/** The value shown for a field a record does not store: its bytes, text (a DDL DEFAULT), or SQL NULL. */
export type InstantDefault = { bytes: Uint8Array } | { text: string } | null;

/** Which fields a record stores, in order, and the size of its null bitmap. */
export interface RecordShape {
  fields: Int32Array;
  nullBytes: number;
  /** The stored fields with a check (FieldSpec.check). */
  checked: FieldChecks;
  /** Output fields (out ≥ 0) the record does not store: they get their instant default. */
  absent: Int32Array;
}

/**
 * What the decoder needs about instant ALTERs, attached to ClusteredLayout.instant. Record shapes are
 * computed once per field count or row version and cached.
 */
export class InstantInfo {
  private readonly shapes = new Map<string, RecordShape>();

  constructor(
    readonly kind: 'mariadb' | 'mysql',
    readonly fields: readonly FieldSpec[],
    /** Fields every record has (MariaDB n_core_fields; MySQL: the fields of records without flags). */
    readonly nCore: number,
    /** Null bitmap bytes of a record without instant information. */
    readonly nCoreNullBytes: number,
    /** Per field index: the value shown when a record lacks the field. */
    readonly defaults: readonly InstantDefault[],
    /** MySQL 8.0.29+: per field index, the row versions it was added and dropped in (0 = never). */
    readonly versions: readonly { added: number; dropped: number }[] | null = null,
  ) {}

  /** Null bitmap bytes of node pointer records: they hold key fields only, with the core bitmap. */
  get nodePtrNullBytes(): number {
    return this.nCoreNullBytes;
  }

  private shape(key: string, present: (i: number) => boolean, nullBytes?: number): RecordShape {
    let s = this.shapes.get(key);
    if (!s) {
      const fields: number[] = [];
      const absent: number[] = [];
      let nullable = 0;
      this.fields.forEach((f, i) => {
        if (present(i)) {
          fields.push(i);
          if (f.nullable) nullable++;
        } else if (f.out >= 0) {
          absent.push(i);
        }
      });
      s = { fields: Int32Array.from(fields), nullBytes: nullBytes ?? (nullable + 7) >> 3, checked: checkedFields(this.fields, fields), absent: Int32Array.from(absent) };
      this.shapes.set(key, s);
    }
    return s;
  }

  /** A record storing the first `n` fields (MariaDB; MySQL records with the instant bit). */
  prefix(n: number): RecordShape {
    if (n > this.fields.length) throw new RangeError(`the record has ${n} fields, the table at most ${this.fields.length}`);
    return this.shape(`n${n}`, (i) => i < n);
  }

  /** A record without instant information. */
  core(): RecordShape {
    if (this.versions) return this.version(0);
    return this.shape('core', (i) => i < this.nCore, this.nCoreNullBytes);
  }

  /** A MySQL record of row version `v`. */
  version(v: number): RecordShape {
    const versions = this.versions;
    if (!versions) throw new RangeError('the record has a row version, but the table has no versioned columns');
    return this.shape(`v${v}`, (i) => {
      const { added, dropped } = versions[i];
      return added <= v && (dropped === 0 || dropped > v);
    });
  }
}

/** Fields of a record, as bounds relative to its origin (for reading the metadata record). */
