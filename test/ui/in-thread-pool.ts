/**
 * A WorkerPool stand-in for tests: the viewer methods (workers/viewer-methods.ts) run in this thread,
 * one "worker" that opens the spec of the pool's generation, so that TableView's runs, searches and
 * sorts go through the worker methods exactly as in the page, without Web Workers.
 */
import type { OpenedView, TableDef, ViewSpec } from '../../workers/viewer-api.ts';
import { createViewerMethods } from '../../workers/viewer-methods.ts';
import { emptyStats } from '../../src/core/readers/table-reader.ts';
import { PoolStopped, type Api, type WorkerPool } from '../../src/ui/pool.ts';

export function inThreadPool(lookup: (name: string) => TableDef | undefined): WorkerPool {
  const api = createViewerMethods(lookup) as unknown as Api;
  let gen = 0;
  let spec: ViewSpec | null = null;
  let opened: Promise<OpenedView> | null = null;
  let tasks = 0;
  const pool = {
    size: 2,
    slots: 1,
    get generation() {
      return gen;
    },
    get tasks() {
      return tasks;
    },
    setSpec(s: ViewSpec) {
      spec = s;
      opened = null;
      return ++gen;
    },
    async run<T>(task: (api: Api, member: number, view: OpenedView | null) => Promise<T>, _p: string, g: number | null): Promise<T> {
      if (g !== null && g !== gen) throw new PoolStopped();
      tasks++;
      const view = g === null ? null : await (opened ??= api.openView(spec as ViewSpec));
      return task(api, 0, view);
    },
    stats: () => emptyStats(),
    noteStats: () => undefined,
  };
  return pool as unknown as WorkerPool;
}
