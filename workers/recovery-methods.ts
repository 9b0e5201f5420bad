/**
 * Worker methods for recovery from a raw image (issue 7): list the indexes found in a file that has
 * no valid page 0 (a disk image, a partial copy, an ibdata1) so the page can offer them, each with
 * the OpenOptions fields that decode it (pass `open` with the table definition to openTable, or
 * through the view spec). Plain TypeScript over src/core/tablespace/orphan-scan.ts; to be mixed into the
 * decoder worker's API like viewer-methods.ts. Everything returned survives structured cloning.
 */
import { rawTarget, scanOrphans, type IndexGroup, type RawTarget } from '../src/core/tablespace/orphan-scan.ts';
import { blobSource } from '../src/core/tablespace/source.ts';
import { fileSource } from './redo-sources.ts';

/** One index of the image, as the page lists it. */
export interface IndexListEntry {
  spaceId: number;
  /** The index id, as text (what the user reads and types). */
  indexId: string;
  pages: number;
  leafPages: number;
  nonLeafPages: number;
  levels: number[];
  records: number;
  rowFormat: 'COMPACT' | 'REDUNDANT';
  /** Root page number, or null when none was found (the leaves will be found by scanning). */
  root: number | null;
  damagedPages: number;
  /** Pages of this index found elsewhere in the image (copies: doublewrite buffer, stale copies); not decoded. */
  copiesElsewhere: number;
  /** The OpenOptions fields that decode this index: `{ ...options, ...entry.open }`. */
  open: { raw: RawTarget; index: { indexId: bigint; rootPage: number | null } };
}

export interface IndexList {
  file: string;
  pageSize: number;
  /** Byte offset of the first whole page in the image. */
  gridOffset: number;
  checksumFormat: 'mysql' | 'full_crc32';
  pagesScanned: number;
  validPages: number;
  damagedPages: number;
  emptyPages: number;
  /** By space id, then index id: in a table's space the lowest id is the clustered index. */
  indexes: IndexListEntry[];
}

export interface RecoveryMethods {
  /**
   * Reads the whole file once and lists its indexes. `pageSize` overrides the guess; `progress`
   * hears bytes done / total. Rejects when nothing in the file looks like InnoDB pages.
   */
  listIndexes(ibd: Blob, name: string, pageSize?: number, progress?: (done: number, total: number) => void): Promise<IndexList>;
  /** Stops a running listIndexes (it rejects with an AbortError). */
  cancelListing(): void;
}

function entry(group: IndexGroup, raw: RawTarget): IndexListEntry {
  return {
    spaceId: group.spaceId, indexId: String(group.indexId), pages: group.pages, leafPages: group.leafPages, nonLeafPages: group.nonLeafPages,
    levels: group.levels, records: group.records, rowFormat: group.compact ? 'COMPACT' : 'REDUNDANT', root: group.root,
    damagedPages: group.damagedPages, copiesElsewhere: group.copiesElsewhere, open: { raw, index: { indexId: group.indexId, rootPage: group.root } },
  };
}

export function createRecoveryMethods(): RecoveryMethods {
  const running = new Set<AbortController>();
  return {
    async listIndexes(ibd, name, pageSize, progress) {
      const controller = new AbortController();
      running.add(controller);
      try {
        const scan = await scanOrphans(await fileSource(ibd, name, () => blobSource(ibd, name)), { pageSize, signal: controller.signal, progress });
        return {
          file: name, pageSize: scan.layout.pageSize, gridOffset: scan.layout.gridOffset,
          checksumFormat: scan.layout.fullCrc32 ? 'full_crc32' : 'mysql', pagesScanned: scan.pagesScanned,
          validPages: scan.validPages, damagedPages: scan.damagedPages, emptyPages: scan.emptyPages,
          indexes: scan.groups.map((g) => entry(g, rawTarget(scan, g))),
        };
      } finally {
        running.delete(controller);
      }
    },
    cancelListing() {
      for (const c of running) c.abort();
    },
  };
}
