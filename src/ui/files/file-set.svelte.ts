/**
 * The files the user gave, as a whole: every file by its path (given again, with the same path, a
 * file replaces the one before), paired into tables (pairing.ts) with the .sql files beside them,
 * the tables of each system tablespace (ibdata1) among them once a worker has read its dictionary;
 * the encryption keys of the key files among them (key-ring.svelte.ts); and what the page says of
 * them: files it does not use, a .frm or .cfg without its .ibd, files that could not be read. The
 * tables found are the Workspace's (workspace.svelte.ts).
 */
import type { DatadirLog, NamedBlob, SystemListing, SystemProgress, SystemTable, UndoBlobs } from '../../../workers/decoder-api.ts';
import { describeError } from '../format.ts';
import { isServerConfig } from '../../core/definitions/server-time-zone.ts';
import { TimeZoneChoice } from '../tables/time-zone.svelte.ts';
import { KeyRing } from './key-ring.svelte.ts';
import { withDataFilesJoined } from './data-files.ts';
import { datadirLogsOf, filesWithoutTheirLog, isDoublewriteFile, isRedoLogFile } from './redo-files.ts';
import { detectImages, detectKeyFiles, folderOf, kindOf, pairFiles, systemPairer, type InputFile, type PairedTable } from './pairing.ts';

function sameFile(a: InputFile, b: InputFile): boolean {
  return a.path === b.path && a.file.size === b.file.size && a.file.lastModified === b.file.lastModified;
}

export class FileSet {
  readonly keyRing = new KeyRing();
  /** The zone TIMESTAMP values are shown in, the server's when a .cnf among the files says it. */
  readonly timeZone = new TimeZoneChoice();
  sqlFiles = $state.raw<InputFile[]>([]);
  /** Files that are not table files, schemas, key files or .cfg/.frm; and .frm/.cfg without an .ibd. */
  ignored = $state.raw<InputFile[]>([]);
  orphans = $state.raw<InputFile[]>([]);
  /** Problems with the files as a whole (an unreadable .sql or key file), in plain language. */
  errors = $state.raw<string[]>([]);
  /** What the page says of files it reads all the same (an ibdata1 whose further data files are not given). */
  warnings = $state.raw<string[]>([]);
  notice = $state<string | null>(null);
  /** How far the listing of a system tablespace's tables is (they are listed as they are counted); null when none runs. */
  listing = $state<string | null>(null);
  /** A dropped datadir's pages are read as they are on disk, its redo log not applied (the CLI's --as-on-disk). */
  asOnDisk = $state(false);
  #files: InputFile[] = [];
  /** The tables of each system tablespace by its path, as its dictionary lists them (readSystems). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered: pair() reads it
  #systems = new Map<string, SystemTable[]>();
  /** The Files that join a system tablespace's data files, by the files they join (data-files.ts). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
  #joined = new Map<string, File>();

  /** Of `inputs`, those not given before (same path, size and time), their key files recognised. */
  fresh(inputs: readonly InputFile[]): Promise<InputFile[]> {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const known = new Map(this.#files.map((f) => [f.path, f]));
    return detectKeyFiles(inputs.filter((f) => {
      const g = known.get(f.path);
      return !g || !sameFile(f, g);
    })).then(detectImages);
  }

  /** Takes in fresh files (they replace those of the same paths) and reads their keys; true when keys were added. */
  async add(fresh: readonly InputFile[]): Promise<boolean> {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const paths = new Set(fresh.map((f) => f.path));
    this.#files = [...this.#files.filter((f) => !paths.has(f.path)), ...fresh];
    this.notice = null;
    this.errors = [];
    const { added, errors } = await this.keyRing.read(fresh.filter((f) => f.key));
    if (errors.length > 0) this.errors = [...this.errors, ...errors];
    return added;
  }

  /** Pairs every file given: the tables, in order; the .sql files and the leftovers are kept here. */
  pair(): PairedTable[] {
    const pairing = pairFiles(this.#joinedFiles(), this.#systems);
    this.sqlFiles = pairing.sqls;
    // (a redo log, and MySQL's doublewrite files beside one, are read with its datadir's files: datadirLogs)
    const logged = pairing.ignored.some(isRedoLogFile);
    this.ignored = pairing.ignored.filter((f) => !isRedoLogFile(f) && !(logged && isDoublewriteFile(f)));
    this.orphans = pairing.orphans;
    return pairing.tables;
  }

  /** Says which files are not used (none of the `tables` found), if any. */
  describeLeftovers(tables: number): void {
    const parts: string[] = [];
    // A .cnf that gave the server's time zone was used.
    // (and the undo tablespaces beside an ibdata1 are read by the Transactions view)
    const undo = this.undoBlobs() !== null;
    const ignored = this.ignored.filter((f) => !(this.timeZone.server && isServerConfig(f.file.name)) && !(undo && /^undo_?\d{3}$/i.test(f.file.name)));
    if (ignored.length > 0) {
      const names = ignored.slice(0, 3).map((f) => f.path).join(', ');
      parts.push(`Ignored ${ignored.length} file${ignored.length === 1 ? '' : 's'} that ${ignored.length === 1 ? 'is' : 'are'} not .ibd, .frm, .sql, .cfg or key files, with no InnoDB index page in the first MiB (${names}${ignored.length > 3 ? ', …' : ''}); a disk image whose pages lie deeper: the CLI's --list-indexes reads every page of it.`);
    }
    if (this.orphans.length > 0) {
      parts.push(`No .ibd for ${this.orphans.map((f) => f.path).slice(0, 3).join(', ')}${this.orphans.length > 3 ? ', …' : ''}.`);
    }
    const unlogged = filesWithoutTheirLog(this.#joinedFiles());
    if (unlogged.length > 0) {
      parts.push(`${unlogged.slice(0, 3).join(', ')}${unlogged.length > 3 ? ', …' : ''}: the same name, size and time in two dropped datadirs, so read as on disk, without either datadir's redo log (rows may be stale); drop each datadir alone to read it through its own log.`);
    }
    if (tables === 0 && this.sqlFiles.length > 0) parts.push('Now add the .ibd table file(s).');
    this.notice = parts.length > 0 ? parts.join(' ') : null;
  }

  /** A file that could not be used as a whole (the sample not fetched, say). */
  failed(err: unknown): void {
    this.errors = [...this.errors, describeError(err)];
  }

  /** The redo log of each datadir dropped, with what the workers read through it (redo-files.ts); none dropped: empty. */
  datadirLogs(): DatadirLog[] {
    return datadirLogsOf(this.#joinedFiles(), this.asOnDisk, this.keyRing.keys);
  }

  /** The .sql files, as the workers take them. */
  sqlBlobs(): NamedBlob[] {
    return this.sqlFiles.map((f) => ({ name: f.path, blob: f.file }));
  }

  /** The files that may define a table: its .frm (same folder), else its datadir's ibdata1, and every .sql. */
  schemaFiles(paired: PairedTable): NamedBlob[] {
    const beside = definitionBlob(paired);
    return [...(beside ? [beside] : []), ...this.sqlBlobs()];
  }

  /**
   * Reads the data dictionary of each system tablespace among `fresh` with `list` (a worker's
   * listSystemTables, given the names of the .frm files of its datadir, and those it asks for by
   * name), its tables handed to `found` as they come, chunk after chunk (the live ones first named,
   * pending, then again as listed), each paired with its .frm (pair() pairs them all again once the
   * listing is over); what it cannot list is said. Returns the system tablespaces read.
   */
  async readSystems(
    fresh: readonly InputFile[],
    list: (ibdata: InputFile, frmNames: string[], frms: (names: string[]) => Promise<NamedBlob[]>, onTables: (tables: SystemTable[], progress: SystemProgress) => void) => Promise<SystemListing>,
    found: (ibdata: InputFile, tables: PairedTable[]) => void,
  ): Promise<InputFile[]> {
    const read: InputFile[] = [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const freshPaths = new Set(fresh.map((f) => f.path));
    // (an ibdata1 whose ibdata2 comes later is read again, joined)
    const systems = this.#joinedFiles().filter((f) => kindOf(f.file.name) === 'system' && [f.path, ...(f.dataFiles ?? [])].some((p) => freshPaths.has(p)));
    const pairer = systemPairer(this.#files);
    for (const ibdata of systems) {
      this.listing = `Reading the data dictionary of ${ibdata.path}…`;
      const folder = folderOf(ibdata.path);
      // (by name: a File looked at or handed over is a synchronous look at the disk, 50,000 of them ~50 s)
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
      const frms = new Map<string, File>();
      for (const f of this.#files) if (kindOf(f.file.name) === 'frm' && folderOf(folderOf(f.path)) === folder) frms.set(datadirName(f), f.file);
      const tables: SystemTable[] = [];
      this.#systems.set(ibdata.path, tables);
      try {
        // The .frm the listing reads (a table only its .frm gives columns, a dropped one's left): few.
        const asked = async (names: string[]) => {
          const blobs = names.flatMap((name) => {
            const blob = frms.get(name);
            return blob ? [{ name, blob }] : [];
          });
          await readSizes(blobs, (n) => (this.listing = `Listing the tables of ${ibdata.path}: ${n.toLocaleString('en-US')} of ${blobs.length.toLocaleString('en-US')} .frm files looked at…`));
          return blobs;
        };
        const listing = await list(ibdata, [...frms.keys()], asked, (chunk, progress) => {
          // (a listing of files closed since, or read again, is not this one's)
          if (this.#systems.get(ibdata.path) !== tables) return;
          // (a table named before it is listed comes again, listed)
          for (const t of chunk) if (!t.pending) tables.push(t);
          this.listing = listingText(ibdata.path, progress);
          if (chunk.length > 0) found(ibdata, pairer(ibdata, chunk));
        });
        if (listing.error) this.errors = [...this.errors, `${ibdata.path}: ${listing.error}`];
        // (what was said of it before, read alone, is said no more)
        this.warnings = [...this.warnings.filter((w) => !w.startsWith(`${ibdata.path}: `)), ...listing.warnings.map((w) => `${ibdata.path}: ${w}`)];
        tables.push(...listing.tables);
        read.push(ibdata);
      } catch (err) {
        this.errors = [...this.errors, `${ibdata.path}: ${describeError(err)}`];
      }
    }
    this.listing = null;
    return read;
  }

  /**
   * The undo logs' files of the datadir given (the first ibdata1, its data files joined): the undo
   * tablespaces (undo001 …) and the redo log (ib_logfile0) in its folder; null without an ibdata1.
   */
  undoBlobs(): UndoBlobs | null {
    const system = this.#joinedFiles().find((f) => kindOf(f.file.name) === 'system' && /^ibdata1$/i.test(f.file.name));
    if (!system) return null;
    const folder = folderOf(system.path);
    const beside = this.#files.filter((f) => folderOf(f.path) === folder);
    const named = (f: InputFile): NamedBlob => ({ name: f.file.name, blob: f.file });
    const log = beside.find((f) => f.file.name === 'ib_logfile0');
    return {
      system: named(system),
      undoSpaces: beside.filter((f) => /^undo_?\d{3}$/i.test(f.file.name)).sort((a, b) => (a.file.name < b.file.name ? -1 : 1)).map(named),
      redoLog: log ? named(log) : null,
    };
  }

  /** The files, each system tablespace's data files as one (data-files.ts). */
  #joinedFiles(): InputFile[] {
    return withDataFilesJoined(this.#files, this.#joined);
  }

  reset(): void {
    this.#files = [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
    this.#joined = new Map();
    this.warnings = [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
    this.#systems = new Map();
    this.keyRing.reset();
    this.asOnDisk = false;
    this.timeZone.forgetServer();
    this.sqlFiles = [];
    this.ignored = [];
    this.orphans = [];
    this.errors = [];
    this.notice = null;
    this.listing = null;
  }
}

/** The sizes of the picked files are read in slices of this many milliseconds (the page stays responsive). */
const SIZE_SLICE_MS = 50;

/**
 * Reads the size of each of `files` in slices, saying how far (`progress`). In Chromium a picked
 * File's first `size` is a synchronous look at the disk, and so is the structured clone that sends an
 * unsized File to a worker: the 50,000 .frm of a datadir handed to the listing at once froze the page
 * for ~24 s. Once read, the sizes stay with the File objects and the clone is quick.
 */
async function readSizes(files: readonly NamedBlob[], progress: (n: number) => void): Promise<void> {
  for (let at = 0; at < files.length; ) {
    const started = performance.now();
    for (; at < files.length && performance.now() - started < SIZE_SLICE_MS; at++) void files[at].blob.size;
    progress(at);
    if (at < files.length) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** How far the listing of `path`'s tables is, in words. */
function listingText(path: string, p: SystemProgress): string {
  const dropped = p.phase === 'dropped' ? '; looking for dropped tables (one read of the whole file)' : '';
  return `Listing the tables of ${path}: ${p.listed.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')}${dropped}…`;
}

/** A datadir file's name with its database folder (`shop/t.frm`): how a system tablespace's dictionary names its tables. */
function datadirName(f: InputFile): string {
  return f.path.split('/').slice(-2).join('/');
}

/**
 * The file beside a table that defines it, as the workers take it: its .frm (a system tablespace's
 * table's named with its database), else the ibdata1 of an .ibd's datadir (its InnoDB data dictionary).
 */
export function definitionBlob(paired: PairedTable): NamedBlob | null {
  const { frm, dictionary } = paired;
  if (frm) return { name: paired.system ? datadirName(frm) : frm.file.name, blob: frm.file };
  return dictionary ? { name: dictionary.file.name, blob: dictionary.file } : null;
}

/** A partitioned table's files as a view opens them (ViewSpec.partitions, .companions); nothing for another table. */
export function partitionFiles(paired: PairedTable): { partitions?: NamedBlob[]; companions?: NamedBlob[] } {
  if (!paired.partitions) return {};
  const named = (f: InputFile) => ({ name: f.file.name, blob: f.file });
  return { partitions: paired.partitions.map(named), companions: paired.par ? [named(paired.par)] : [] };
}
