/**
 * The server's time zone, as the files of its datadir or its configuration say it: what its clients
 * saw TIMESTAMP values in. MySQL 8 keeps `SET PERSIST time_zone = …` in the datadir's mysqld-auto.cnf
 * (JSON, read after every option file, so it wins); an option file (my.cnf, a conf.d/*.cnf) sets
 * `default-time-zone` in a server group ([mysqld], [server], [mariadb], [mariadbd], and their
 * version-suffixed forms). The value is as written: timeZone() (time-zone.ts) says whether it is one
 * (`SYSTEM`, the machine's own zone, is not something the files can tell).
 */
export interface ConfigFile {
  /** The file's name, for saying where the zone came from. */
  name: string;
  text: string;
}

export interface ServerTimeZone {
  /** As the file writes it: `Europe/Berlin`, `+02:00`, `SYSTEM`. */
  zone: string;
  /** Where it was read: `time_zone in mysqld-auto.cnf`, `default-time-zone in my.cnf`. */
  from: string;
}

/** Option file groups the server reads (mysqld, MariaDB's server and mariadb groups, with versions). */
const SERVER_GROUP = /^(mysqld|server|mariadb|mariadbd)(-[\d.]+)?$/i;
const ZONE_OPTION = /^(?:loose[-_])?default[-_]time[-_]zone\s*=\s*(.*)$/i;

/** Whether the file is a MySQL/MariaDB option file or the persisted variables file, by its name. */
export function isServerConfig(name: string): boolean {
  return /\.cnf$/i.test(name);
}

/** The zone the files give (mysqld-auto.cnf first, then the last option file setting it); null when none does. */
export function serverTimeZone(files: readonly ConfigFile[]): ServerTimeZone | null {
  const base = (f: ConfigFile) => f.name.replace(/^.*[/\\]/, '');
  for (const f of files.filter((g) => base(g).toLowerCase() === 'mysqld-auto.cnf')) {
    const zone = persistedZone(f.text);
    if (zone !== null) return { zone, from: `time_zone in ${f.name}` };
  }
  let found: ServerTimeZone | null = null;
  for (const f of files.filter((g) => base(g).toLowerCase() !== 'mysqld-auto.cnf')) {
    const zone = optionFileZone(f.text);
    if (zone !== null) found = { zone, from: `default-time-zone in ${f.name}` };
  }
  return found;
}

/** The option's value without quotes; null when empty. */
function cleaned(value: string): string | null {
  const zone = value.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
  return zone === '' ? null : zone;
}

/** mysqld-auto.cnf: `{"Version": 2, "mysql_dynamic_variables": {"time_zone": {"Value": "+02:00", …}}, …}` (Version 1 nests it under "mysql_server"). */
function persistedZone(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const visit = (node: unknown, depth: number): string | null => {
    if (node === null || typeof node !== 'object' || depth > 4) return null;
    for (const [key, value] of Object.entries(node)) {
      const inner = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).Value : undefined;
      if (key.toLowerCase() === 'time_zone' && typeof inner === 'string') return cleaned(inner);
      const deeper = visit(value, depth + 1);
      if (deeper !== null) return deeper;
    }
    return null;
  };
  return visit(json, 0);
}

/** An option file's last `default-time-zone` in a server group. */
function optionFileZone(text: string): string | null {
  let server = false;
  let zone: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s[#;].*$/, '').trim();
    const group = /^\[([^\]]+)\]$/.exec(line);
    if (group) server = SERVER_GROUP.test(group[1].trim());
    const option = server ? ZONE_OPTION.exec(line) : null;
    if (option) zone = cleaned(option[1]) ?? zone;
  }
  return zone;
}
