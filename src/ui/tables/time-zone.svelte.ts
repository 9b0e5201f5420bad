/**
 * The zone the page shows TIMESTAMP values in (and exports them in: CSV, NDJSON; the SQL export keeps
 * UTC, which its SET TIME_ZONE names, so it loads back exactly): UTC until the user picks one, or the
 * server's own when the files dropped say it (a my.cnf or other .cnf, MySQL 8's mysqld-auto.cnf:
 * core/definitions/server-time-zone.ts), with where it came from.
 */
import { isServerConfig, serverTimeZone, type ServerTimeZone } from '../../core/definitions/server-time-zone.ts';
import { timeZone } from '../../core/values/time-zone.ts';
import type { InputFile } from '../files/pairing.ts';

/** Option files are small; a larger .cnf is not one. */
const MAX_CONFIG_BYTES = 1 << 20;

export class TimeZoneChoice {
  zone = $state('UTC');
  /** The server's zone as the files given say it; null when none does. */
  server = $state.raw<ServerTimeZone | null>(null);
  /** Why the zone the files give cannot be used (SYSTEM, a name this browser does not know). */
  problem = $state<string | null>(null);
  /** Set once the user picks a zone: a .cnf dropped later no longer changes it. */
  #picked = false;

  pick(zone: string): void {
    this.zone = timeZone(zone).name;
    this.#picked = true;
  }

  /** The files are gone: so is the server's zone (a zone the user picked stays). */
  forgetServer(): void {
    if (!this.#picked) this.zone = 'UTC';
    this.server = null;
    this.problem = null;
  }

  /** Reads the .cnf files among `files`: the server's zone, when they give it, becomes the zone shown (unless one was picked); true when the zone changed. */
  async read(files: readonly InputFile[]): Promise<boolean> {
    const configs = files.filter((f) => isServerConfig(f.file.name) && f.file.size <= MAX_CONFIG_BYTES);
    if (configs.length === 0) return false;
    const found = serverTimeZone(await Promise.all(configs.map(async (f) => ({ name: f.path, text: await f.file.text() }))));
    if (found === null) return false;
    try {
      const zone = timeZone(found.zone).name;
      this.server = { zone, from: found.from };
      this.problem = null;
      if (this.#picked || this.zone === zone) return false;
      this.zone = zone;
      return true;
    } catch (e) {
      this.problem = `${found.from}: ${(e as Error).message}`;
      return false;
    }
  }
}
