/**
 * The zone the CLI shows TIMESTAMP values in: `--time-zone`, else the server's own when the datadir
 * the file lies in says it (server-time-zone.ts: mysqld-auto.cnf, a my.cnf or other .cnf left in the
 * datadir or beside the file), else UTC. A zone taken from the files is said on stderr, with where.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isServerConfig, serverTimeZone, type ConfigFile } from '../core/definitions/server-time-zone.ts';
import { timeZone } from '../core/values/time-zone.ts';

/** A --time-zone value, checked: `error` makes what is thrown when it is not a zone. */
export function checkedZone(value: string, error: (why: string) => Error): string {
  try {
    return timeZone(value).name;
  } catch (e) {
    throw error((e as Error).message);
  }
}

/** The .cnf files of a folder (none when it cannot be listed). */
async function configFiles(dir: string): Promise<ConfigFile[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files: ConfigFile[] = [];
  for (const name of names.filter(isServerConfig)) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => null);
    if (text !== null) files.push({ name: join(dir, name), text });
  }
  return files;
}

/** The zone for `ibd` (`given` when not null); `say` gets a line on where a zone from the files came from, or why it is not used. */
export async function cliTimeZone(given: string | null, ibd: string, say: (line: string) => void): Promise<string> {
  if (given !== null) return given;
  // datadir/db/t.ibd, or datadir/ibdata1: the file's own folder and the one above it.
  const folder = dirname(ibd);
  const found = serverTimeZone([...(await configFiles(dirname(folder))), ...(await configFiles(folder))]);
  if (found === null) return 'UTC';
  try {
    const zone = timeZone(found.zone).name;
    say(`TIMESTAMP values are shown in ${zone}, the server's zone (${found.from}); --time-zone UTC shows them in UTC`);
    return zone;
  } catch (e) {
    say(`warning: ${found.from}: ${(e as Error).message}; TIMESTAMP values are shown in UTC`);
    return 'UTC';
  }
}
