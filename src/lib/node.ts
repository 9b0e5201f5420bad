/**
 * The library's entry for Node: what index.ts offers, and paths. An .ibd given by its path is read
 * through one file handle (file-source.ts), closed by InnodbFile.close(); the .frm beside it
 * (FILE.frm, in any case) is looked at too, unless `files` or `schema` is given. A companion or a
 * schema may be a path as well.
 *
 *   const file = await openInnodb('/var/lib/mysql/shop/orders.ibd');
 *   const table = await file.table(null, { rows: 'all' });
 *   for await (const row of table.rows()) console.log(row);
 *   await file.close();
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ByteSource } from '../core/tablespace/source.ts';
import { fileSource, type FileSource } from '../node/file-source.ts';
import { companionSource, ibdSource, type FileInput, type IbdInput, type OpenInnodbOptions } from './inputs.ts';
import { openSource, type InnodbFile } from './innodb-file.ts';

export type { FileInput, IbdInput, NamedData, OpenInnodbOptions } from './inputs.ts';
export * from './exports.ts';

/** An .ibd or a companion file in Node: a path besides what index.ts takes. */
export type NodeIbdInput = string | IbdInput;
export type NodeFileInput = string | FileInput;

/** FILE.frm beside FILE.ibd, the case of the names aside (datadirs hold VIEWERS.frm beside viewers.ibd), as the page pairs them. */
function frmBeside(ibd: string): string | null {
  const want = `${basename(ibd).replace(/\.ibd$/i, '')}.frm`;
  const exact = join(dirname(ibd), want);
  if (existsSync(exact)) return exact;
  let names: string[];
  try {
    names = readdirSync(dirname(ibd));
  } catch {
    return null;
  }
  const found = names.find((name) => name.toLowerCase() === want.toLowerCase());
  return found === undefined ? null : join(dirname(ibd), found);
}

/** Opens an .ibd (a path, File, Blob or bytes): throws NotInnodbError when it holds no InnoDB page; finds its table definitions. */
export async function openInnodb(input: NodeIbdInput, options: OpenInnodbOptions<NodeFileInput> = {}): Promise<InnodbFile> {
  // Companions are read whole while the definitions are found, and closed then.
  const companions: FileSource[] = [];
  const sourceOf = async (f: NodeFileInput): Promise<ByteSource> => {
    if (typeof f !== 'string') return companionSource(f);
    const source = await fileSource(f);
    companions.push(source);
    return source;
  };
  const ibd = typeof input === 'string' ? await fileSource(input) : null;
  const source = ibd ?? ibdSource(input as IbdInput, options.name);
  const beside = typeof input === 'string' && options.files === undefined && options.schema === undefined ? frmBeside(input) : null;
  try {
    const files = await Promise.all([...(options.files ?? []), ...(beside === null ? [] : [beside])].map(sourceOf));
    const schema = options.schema === undefined ? undefined : await sourceOf(options.schema);
    return await openSource(source, { schema, files, keys: options.keys }, async () => ibd?.close());
  } catch (e) {
    await ibd?.close();
    throw e;
  } finally {
    await Promise.all(companions.map((c) => c.close()));
  }
}
