/**
 * The page map of the table on screen, fed by its row count (issue 27): the pool's workers record
 * every page their count reads (src/core/readers/page-map-fill.ts) and the page hands each batch on,
 * transferred, to the summary worker that keeps the file's map (workers/page-map-methods.ts), so the
 * map fills while the rows are counted and is complete when they are, with no read of its own but the
 * pages the count does not read. The page keeps nothing of it.
 */
import * as Comlink from 'comlink';
import type { MappedRange } from '../../../workers/decoder-api.ts';
import type { ViewSpec } from '../../../workers/viewer-api.ts';
import { packedBuffers } from '../../core/readers/page-map.ts';
import type { Api } from '../pool.ts';

/** What the count calls as it reads, then once when it ends. */
export interface CountedMapFeed {
  pages(ranges: MappedRange[]): void;
  end(counted: boolean): void;
}

/**
 * The feed of `spec`'s file map through `api` (the summary worker); null for a view that is not one
 * whole file (a partitioned table, a raw image's table), or whose map is given already (`seeded`).
 */
export function countedMapFeed(api: Api, spec: ViewSpec, seeded: boolean): CountedMapFeed | null {
  if (seeded || spec.raw || (spec.partitions?.length ?? 0) > 0) return null;
  const { ibd, name } = spec;
  // The map is a picture: a worker that cannot fill it leaves it to a scan of its own (store.get).
  const ignore = () => undefined;
  api.countedMapStart(ibd, name, spec.keys).catch(ignore);
  return {
    pages(ranges) {
      api.countedMapPages(ibd, name, Comlink.transfer(ranges, ranges.flatMap((r) => packedBuffers(r.map)))).catch(ignore);
    },
    end(counted) {
      api.countedMapEnd(ibd, name, counted).catch(ignore);
    },
  };
}
