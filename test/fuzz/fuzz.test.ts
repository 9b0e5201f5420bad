/**
 * A bounded fuzz campaign (campaign.ts; a bigger one: `npm run fuzz -- --seed N --count N`): mutated
 * copies of the sample, of MariaDB-written tables and of the MySQL 5.6 / 5.7 / 8.0 fixture files,
 * decoded in `live` and `all` modes, about 35 s of cases from seed 1.
 *
 * Whatever the mutation: no crash (anything thrown but an IbdError at open), no hang, no uncaught
 * error. Where the damage is detectable (every mutated page fails its checksum, is zeroed or is past
 * the end of the file): no row of the `live` output that is not a row of the intact file's. Where a
 * mutated page's checksum is valid again, wrong rows are printed as a figure, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { makeTables } from '../damage/tables.ts';
import { buildWorker, checkCorpus, formatFigures, removeWorker, runCampaign } from './campaign.ts';
import { mariadbFiles, mysqlFiles, sampleFiles, type CorpusFile } from './corpus.ts';

const SECONDS = 35;

describe('fuzz: mutated copies of real files', () => {
  let server: MariadbServer | undefined;
  let workerPath: string;
  let corpus: CorpusFile[];

  beforeAll(async () => {
    workerPath = await buildWorker();
    server = await startMariadb();
    const tables = await makeTables(server, 3000);
    await server.stop();
    corpus = [...sampleFiles(), ...mariadbFiles(tables), ...mysqlFiles()];
    await checkCorpus(workerPath, corpus);
  });
  afterAll(async () => {
    await server?.stop();
    if (workerPath) removeWorker(workerPath);
  });

  it('the harness: a case over its time limit is a hang, its worker is replaced and the campaign goes on', async () => {
    // 1 ms is too short for most cases (a copy refused at once may make it).
    const figures = await runCampaign(workerPath, sampleFiles(), { seed: 2, count: 6, timeLimitMs: 1, recomputeShare: 0 });
    const hangs = figures.byClass.detectable.hangs + figures.byClass.undetectable.hangs;
    expect(figures.cases + figures.noops).toBe(6);
    expect(hangs).toBeGreaterThanOrEqual(3);
  });

  it(`${SECONDS} s of cases: no crash, hang or uncaught error; no unmarked wrong row where the damage is detectable`, async () => {
    const figures = await runCampaign(workerPath, corpus, {
      seed: 1,
      count: 1_000_000,
      deadline: Date.now() + SECONDS * 1000,
      timeLimitMs: 10_000,
      recomputeShare: 0.25,
      log: (line) => console.log(line),
    });
    console.log(formatFigures(figures));
    const { detectable, undetectable } = figures.byClass;
    expect(detectable.cases).toBeGreaterThan(50);
    expect(undetectable.cases).toBeGreaterThan(10);
    for (const [name, c] of [['detectable', detectable], ['undetectable', undetectable]] as const) {
      expect.soft({ crashes: c.crashesAtOpen + c.crashesReading, hangs: c.hangs, uncaught: c.uncaught }, `${name} mutations`).toEqual({ crashes: 0, hangs: 0, uncaught: 0 });
    }
    expect.soft(detectable.wrongRows, 'unmarked wrong rows where the damage is detectable').toBe(0);
  }, 120_000);
});
