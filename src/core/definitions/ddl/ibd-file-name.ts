/**
 * The table an .ibd file holds, found by its file name among the tables of a script: MySQL writes
 * table names into file names in its "filename" character set, and partitions into files of their
 * own.
 */
import type { TableDef } from '../../schema.ts';

/**
 * The table an .ibd file holds: the one named like the file, compared exactly, then ignoring case,
 * then with undecodable escapes in the file name (see `fileNamePattern`) matching any character.
 * When a script defines the name twice the later definition wins, as it would on the server. Null
 * when nothing (or more than one name) matches.
 */
export function pickTable(tables: TableDef[], ibdFileName: string): TableDef | null {
  const { name, pattern } = fileNamePattern(ibdFileName);
  const lower = name.toLowerCase();
  const tests: (() => (table: TableDef) => boolean)[] = [
    () => (t) => t.name === name,
    () => (t) => t.name.toLowerCase() === lower,
    // Made only when the names do not match (a RegExp costs ~10 µs; 10,000 tables are listed at once).
    () => {
      const re = new RegExp(`^${pattern}$`, 'isu');
      return (t) => re.test(t.name);
    },
  ];
  for (const test of tests) {
    const found = tables.filter(test());
    if (found.length === 0) continue;
    return found.every((t) => t.name === found[0].name) ? found[found.length - 1] : null;
  }
  return null;
}

/**
 * The table name in an .ibd file name. MySQL writes names in its "filename" character set: ASCII
 * letters, digits and `_` as they are, other characters as `@` + 4 hex digits (`@002d` is '-'), or,
 * for accented and other letters, `@` + 2 characters from a server table (`@0p` is 'é'). Partitions
 * are `t#P#p0.ibd` (`t#p#p0.ibd` in MySQL 8.0). The 2-character escapes are not decoded: in
 * `pattern` (a regular expression's source) each stands for any one character.
 */
function fileNamePattern(fileName: string): { name: string; pattern: string } {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const table = base.replace(/\.ibd$/i, '').replace(/#p#.*$/is, '');
  let name = '';
  let pattern = '';
  for (const [, hex, letter, plain] of table.matchAll(/@([0-9a-f]{4})|@(..)|([^@]+|@)/gis)) {
    const text = hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (plain ?? `@${letter}`);
    name += text;
    pattern += letter !== undefined ? '.' : text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  return { name, pattern };
}
