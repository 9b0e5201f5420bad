// Bundles the command-line tool (src/cli.ts and the decoder core) into Node ESM files in dist-cli/:
// ibd-reader.mjs, decode-worker.mjs for its worker threads, and redo-scan-worker.mjs for the redo log's scan.
import { build } from 'esbuild';
import { nodeEsm } from './esbuild-options.mjs';

await build({ ...nodeEsm, entryPoints: ['src/cli.ts'], outfile: 'dist-cli/ibd-reader.mjs', banner: { js: '#!/usr/bin/env node' } });
await build({ ...nodeEsm, entryPoints: ['src/node/decode-worker.ts'], outfile: 'dist-cli/decode-worker.mjs' });
await build({ ...nodeEsm, entryPoints: ['src/node/redo-scan-worker.ts'], outfile: 'dist-cli/redo-scan-worker.mjs' });
