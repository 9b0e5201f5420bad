// `npm run bench [-- options]`. Node 20 cannot run TypeScript, so the benchmark (bench/main.ts, which
// uses the MariaDB test harness) and its in-process decoder loop (bench/many-decode.ts) are bundled
// with esbuild into .cache/bench/build/ first. npm packages stay external: they load from
// node_modules as usual. The benchmark is not part of `npm test`.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, '.cache', 'bench', 'build');

await build({
  absWorkingDir: root,
  entryPoints: { main: 'bench/main.ts', 'many-decode': 'bench/many-decode.ts', 'redo-scan-worker': 'src/node/redo-scan-worker.ts' },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});

const { main } = await import(pathToFileURL(join(out, 'main.mjs')).href);
process.exitCode = await main(root, process.argv.slice(2), join(out, 'many-decode.mjs'));
