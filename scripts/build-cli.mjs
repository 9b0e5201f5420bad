// Bundles the command-line tool (src/cli.ts and the decoder core) into Node ESM files in dist-cli/:
// ibd-reader.mjs, and decode-worker.mjs for its worker threads.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist-cli/ibd-reader.mjs', banner: { js: '#!/usr/bin/env node' } });
await build({ ...common, entryPoints: ['src/node/decode-worker.ts'], outfile: 'dist-cli/decode-worker.mjs' });
