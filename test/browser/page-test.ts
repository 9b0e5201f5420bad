/**
 * The set-up every browser test file repeats, once: a work folder, a private MariaDB when asked for,
 * and Chromium on the built page (loaded, its service worker in control). pageTest() registers the
 * beforeAll/afterAll hooks itself; hooks a file adds after the call run after its set-up (Vitest runs
 * a suite's beforeAll hooks in order), so they can fill the server and take its files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { startMariadb, type MariadbServer, type StartMariadbOptions } from '../harness/mariadb.ts';
import { checkSetup, loadPage, startSession, type Session } from './harness.ts';

/** What a browser test file works with; set once its beforeAll has run. */
export interface PageTest {
  work: string;
  /** The private server (only when pageTest() was given `mariadb`). */
  db: MariadbServer;
  session: Session;
  page: Page;
}

export interface PageTestOptions {
  /** Start a private MariaDB with these options. */
  mariadb?: StartMariadbOptions;
}

/** Registers the file's set-up and tear-down; `name` names its work folder. */
export function pageTest(name: string, options: PageTestOptions = {}): PageTest {
  const t = {} as PageTest;
  let db: MariadbServer | undefined;
  beforeAll(async () => {
    checkSetup();
    t.work = mkdtempSync(join(tmpdir(), `ibd-${name}-test-`));
    if (options.mariadb) t.db = db = await startMariadb(options.mariadb);
    t.session = await startSession(join(t.work, 'chromium-profile'));
    t.page = t.session.page;
    await loadPage(t.session);
  }, 240_000);
  afterAll(async () => {
    await t.session?.close();
    await db?.stop();
    if (t.work) rmSync(t.work, { recursive: true, force: true });
  }, 60_000);
  return t;
}
