/**
 * The house rules (issue "One house"), checked on the tree as it is: no import cycle in `src/` and
 * `workers/` (type-only imports count), the decoder's layers importing only the layers below them,
 * the decoder free of the page and of Node, no source file over 500 lines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, lineCount, ROOT, sourceFiles } from './imports.ts';

/** The decoder's layers, lowest first; docs/architecture.md says what each holds. */
const LAYERS = ['codecs', 'pages', 'tablespace', 'log', 'btree', 'values', 'records', 'trx', 'definitions', 'readers', 'writers'];
/** Files of `src/core/` outside the folders: the vocabulary every layer shares. */
const SHARED = new Set(['src/core/errors.ts', 'src/core/schema.ts']);

function layerOf(file: string): number | null {
  if (!file.startsWith('src/core/')) return null;
  if (SHARED.has(file)) return -1;
  const folder = file.split('/')[2];
  const rank = LAYERS.indexOf(folder);
  if (rank < 0) throw new Error(`${file} is in no layer of src/core (${LAYERS.join(', ')})`);
  return rank;
}

describe('the house', () => {
  const graph = importGraph(sourceFiles('src', 'workers'));

  it('has no import cycle in src/ and workers/', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps every decoder module in a layer, importing only its own layer and those below', () => {
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
      const rank = layerOf(file);
      if (rank === null) continue;
      for (const dep of deps) {
        const depRank = layerOf(dep);
        if (depRank === null) wrong.push(`${file} imports ${dep}, outside the decoder`);
        else if (depRank > rank) wrong.push(`${file} (${LAYERS[rank] ?? 'shared'}) imports ${dep} (${LAYERS[depRank]})`);
        else if (rank === 0 && depRank === 0 && file.split('/')[2] !== dep.split('/')[2]) wrong.push(`${file} imports ${dep}`);
      }
      if (rank === 0 && deps.some((d) => !d.startsWith('src/core/codecs/'))) wrong.push(`${file}: a codec imports only codecs`);
      if (rank === -1 && deps.length > 0) wrong.push(`${file}: the shared vocabulary imports nothing`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the decoder free of the DOM, Svelte and Node', () => {
    const wrong = [...graph.keys()]
      .filter((f) => f.startsWith('src/core/'))
      .filter((f) => /from\s+['"](svelte|node:[^'"]+|fs|path)['"]/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(wrong).toEqual([]);
  });

  it('has no source file over 500 lines', () => {
    const long = sourceFiles('src', 'workers', 'test', 'bench', 'scripts')
      .map((f) => [f, lineCount(f)] as const)
      .filter(([, n]) => n > 500)
      .map(([f, n]) => `${f}: ${n} lines`);
    expect(long).toEqual([]);
  });
});
