// postinstall: applies patches/ (reviewed fixes to dependencies, until upstream releases them) with
// patch-package, in this project's own checkout only. Where ibd-reader is installed into another
// project, its bundles (dist-lib, dist-cli) already carry the patched code and neither patches/ nor
// patch-package is there: nothing to do. In the checkout a patch that fails to apply fails the install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', 'patch-package');
if (existsSync(join(root, 'patches')) && existsSync(bin)) {
  execFileSync(bin, ['--error-on-fail'], { cwd: root, stdio: 'inherit' });
}
