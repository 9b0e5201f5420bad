// Builds the library (package.json `exports`) into dist-lib/: index.mjs for browsers (src/lib/index.ts),
// node.mjs for Node (src/lib/node.ts, paths too), each an ESM bundle with the decoder in it, and
// their type declarations in dist-lib/types/ (tsc, tsconfig.lib.json).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { esm, nodeEsm } from './esbuild-options.mjs';

rmSync('dist-lib', { recursive: true, force: true });
await build({ ...esm, platform: 'browser', target: 'es2022', entryPoints: ['src/lib/index.ts'], outfile: 'dist-lib/index.mjs' });
await build({ ...nodeEsm, entryPoints: ['src/lib/node.ts'], outfile: 'dist-lib/node.mjs' });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
