/**
 * The import graph of the source tree, read from the files themselves (static and dynamic imports,
 * `import type`, re-exports, `new URL(…, import.meta.url)` and Vite's `?worker` suffixes), for the
 * house rules: no cycle, the decoder's layers importing only downwards, no file over 500 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

export const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), '..', '..'));

const SOURCE = /\.(ts|mts|mjs|svelte)$/;

/** Every source file under the given folders, as paths relative to the repository. */
export function sourceFiles(...folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  folders.forEach(walk);
  return out.sort();
}

const SPECIFIER = /(?:\bfrom|\bimport|\bimport\(|new URL\()\s*['"](\.{1,2}\/[^'"?]+)(?:\?[^'"]*)?['"]/g;

/** The files a file imports, relative to the repository; `known` resolves `x.js` to `x.ts`. */
export function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const deps = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const target = normalize(join(dirname(file), match[1]));
    const found = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')].find((c) => known.has(c));
    if (found !== undefined) deps.add(found);
  }
  return [...deps];
}

export type Graph = Map<string, string[]>;

export function importGraph(files: readonly string[]): Graph {
  const known = new Set(files);
  return new Map(files.map((f) => [f, importsOf(f, known)]));
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

export function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export const fromRoot = (path: string): string => relative(ROOT, path);
