// `node bench/datadir-scale.mjs N [N2 …]`: bench/datadir-scale.ts bundled with esbuild first (Node 20 runs no TypeScript).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, '.cache', 'bench', 'build');
await build({
  absWorkingDir: root, entryPoints: { 'datadir-scale': 'bench/datadir-scale.ts' }, outdir: out, outExtension: { '.js': '.mjs' },
  bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning',
});
const { main } = await import(pathToFileURL(join(out, 'datadir-scale.mjs')).href);
await main(root, process.argv.slice(2));
