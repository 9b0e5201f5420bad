/// <reference lib="webworker" />
/**
 * The decoder Web Worker: parses the DDL, opens the .ibd by Blob slices (never read whole) and decodes
 * the runs of leaf pages the page's pool hands it. See decoder-api.ts for the contract.
 */
import * as Comlink from 'comlink';
import type { TableDef } from '../src/core/schema.ts';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { batchBuffers } from '../src/core/values/row-batch.ts';
import type { DecoderApi, ResolvedOpen, ResolvedSchemaResult, SchemaResult } from './decoder-api.ts';
import { createViewerMethods } from './viewer-methods.ts';
import { createRecoveryMethods } from './recovery-methods.ts';
import { createGuessMethods } from './guess-methods.ts';
import { createListMethods, resolveCached } from './list-methods.ts';
import { choiceNames, createSystemMethods } from './system-methods.ts';
import { createPageMapMethods, PageMapStore } from './page-map-methods.ts';
import { createUndoMethods } from './undo-methods.ts';
import { fileSource, takeCensus, useDatadirLogs, useRedoCensus } from './redo-sources.ts';

let tables: TableDef[] = [];
const pageMaps = new PageMapStore();

const api: DecoderApi = {
  ...createViewerMethods((name) => tables.find((t) => t.name === name), pageMaps),
  ...createPageMapMethods(pageMaps),
  ...createRecoveryMethods(),
  ...createListMethods(),
  ...createSystemMethods(),
  ...createUndoMethods(),
  // A guessed table joins (or replaces, by name) the tables the viewer methods look up.
  ...createGuessMethods((table) => {
    tables = [...tables.filter((t) => t.name !== table.name), table];
  }),

  async readSchema(sql, ibdName) {
    const text = typeof sql === 'string' ? sql : await sql.text();
    tables = parseCreateTables(text);
    const picked = pickTable(tables, ibdName) ?? (tables.length === 1 ? tables[0] : null);
    const result: SchemaResult = {
      tables: tables.map((t) => ({ name: t.name, columnCount: t.columns.length })),
      picked: picked ? picked.name : null,
    };
    return result;
  },

  async resolveSchema(ibd, ibdName, files, chosen = null) {
    // .sql files parsed once per worker (a dump of 10,000 tables is not parsed again per table)
    const resolved = await resolveCached(await fileSource(ibd, ibdName), files, chosen);
    // the chosen source's tables (a general tablespace or a dump can hold several), chosen one first
    const candidates = resolved.candidates.slice().sort((a, b) => Number(b.table === resolved.table) - Number(a.table === resolved.table));
    tables = candidates.map((c) => c.table);
    const names = choiceNames(candidates);
    const result: ResolvedSchemaResult = {
      // (a system tablespace's tables are chosen by `db/table`)
      tables: candidates.map((c, i) => ({
        name: names[i]!, columnCount: c.table.columns.length, source: c.source, file: c.file,
        // Only a file holding several tables needs its index named (one table: found through page 0);
        // only a system tablespace's candidates that are not SDI have one.
        ...(c.clusteredIndex && (c.source !== 'sdi' || candidates.filter((o) => o.source === 'sdi').length > 1) ? { clusteredIndex: c.clusteredIndex } : {}),
      })),
      picked: resolved.table?.name ?? null,
      source: resolved.source,
      file: resolved.file,
      warnings: resolved.warnings,
      error: resolved.error,
    };
    return result;
  },

  async resolveAndOpen(ibd, ibdName, files, want) {
    const resolved = await api.resolveSchema(ibd, ibdName, files, want.chosen ?? null);
    const name = want.chosen && resolved.tables.some((t) => t.name === want.chosen) ? want.chosen : resolved.picked;
    // resolveSchema's tables are `tables`, in its order
    const table = name ? tables[resolved.tables.findIndex((t) => t.name === name)] ?? null : null;
    const out: ResolvedOpen = { resolved, table, opened: null };
    if (!table) return out;
    const { chosen: _, ...how } = want;
    // A table of a general tablespace / mysql.ibd is decoded through its own B-tree (from the SDI).
    const index = how.index ?? resolved.tables.find((t) => t.name === name)?.clusteredIndex ?? undefined;
    try {
      const view = await api.openView({ ibd, name: ibdName, table, ...how, index });
      // A definition that does not fit gives no rows: the page opens the table again, and says why.
      await api.checkDefinition();
      // As TableView.open: a first leaf that does not decode is reported by the page's own decode of it.
      const first = await api.firstLeaf().catch(() => null);
      const plan = await api.leafPages();
      out.opened = { view, first, plan };
    } catch {
      return out;
    }
    return Comlink.transfer(out, [...(out.opened.first ? batchBuffers(out.opened.first.batch) : []), out.opened.plan.leaves.buffer]);
  },

  async createSql(tableName) {
    const table = tables.find((t) => t.name === tableName);
    if (!table) throw new Error(`Table ${tableName} is not defined by the files given.`);
    return table.createSql;
  },

  redoCensus(log, keys) {
    return takeCensus(log, keys);
  },

  useRedoCensus(key, census) {
    useRedoCensus(key, census);
  },

  useDatadirLogs(logs) {
    useDatadirLogs(logs);
    pageMaps.forget();
  },
};

Comlink.expose(api);
