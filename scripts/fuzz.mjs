// `npm run fuzz [-- options]`: Node 20 cannot run TypeScript, so scripts/fuzz.ts (which uses the test
// harness and the fuzz campaign of test/fuzz/) is bundled with esbuild into .cache/fuzz/build/ first,
// as bench/run.mjs does for the benchmark. npm packages stay external. `import.meta.dirname` is
// replaced by each source file's own folder, so that paths made from it (the fixtures, the sample,
// the worker's sources) still point where they did. Not part of `npm test`.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, '.cache', 'fuzz', 'build');

/** Each .ts file's `import.meta.dirname` as its own folder, not the bundle's. */
const sourceDirname = {
  name: 'source-dirname',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path))),
      loader: 'ts',
    }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { fuzz: 'scripts/fuzz.ts' },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  plugins: [sourceDirname],
});

const { main } = await import(pathToFileURL(join(out, 'fuzz.mjs')).href);
process.exitCode = await main(process.argv.slice(2));
