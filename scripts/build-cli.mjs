// Bundles the command-line tool (src/cli.ts and the decoder core) into one Node ESM file: dist-cli/ibd-reader.mjs.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist-cli/ibd-reader.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
