#!/usr/bin/env bash
# The project's test command: `npm test` (extra arguments go to vitest, e.g. `npm test -- test/harness`).
#
#  1. installs missing system packages with apt-get (MariaDB server + client for the differential
#     tests, Debian's chromium for the browser tests); fails loudly if that is impossible
#  2. npm ci, only when node_modules is missing
#  3. (lint / type-check steps: see the marked spot below)
#  4. npm run build (the browser tests load dist/), when vite.config.ts exists
#  5. vitest run (config: vitest.config.ts), then prints a plain "Tests: N passed, N failed" line
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# ---------------------------------------------------------------- 1. system packages
# Keep in sync with ensureMariadbInstalled() in test/harness/mariadb-install.ts.
have() { command -v "$1" >/dev/null 2>&1; }
missing=()
if ! { [ -x /usr/sbin/mariadbd ] || have mariadbd; } || ! have mariadb-install-db; then
  missing+=(mariadb-server)
fi
have mariadb || missing+=(mariadb-client)
have unzip || missing+=(unzip)
# MariaDB's page compression providers (test/differential/page-compression-algorithms.test.ts).
for provider in lz4 lzo lzma bzip2 snappy; do
  [ -e "/usr/lib/mysql/plugin/provider_$provider.so" ] || missing+=("mariadb-plugin-provider-$provider")
done
[ -x /usr/bin/chromium ] || missing+=(chromium)

if [ "${#missing[@]}" -gt 0 ]; then
  echo "test.sh: installing missing system packages: ${missing[*]}" >&2
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    if have sudo; then SUDO=(sudo); else
      echo "test.sh: ERROR: need root (or sudo) to apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
  # Keep dpkg from starting the system MariaDB service: the tests run private servers.
  added_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${SUDO[@]}" chmod 755 /usr/sbin/policy-rc.d
    added_policy=1
  fi
  install_ok=1
  "${SUDO[@]}" apt-get update || install_ok=0
  if [ "$install_ok" = 1 ]; then
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" || install_ok=0
  fi
  if [ "$added_policy" = 1 ]; then "${SUDO[@]}" rm -f /usr/sbin/policy-rc.d; fi
  if [ "$install_ok" != 1 ]; then
    echo "test.sh: ERROR: apt-get could not install: ${missing[*]}" >&2
    exit 1
  fi
fi

# ---------------------------------------------------------------- 2. node modules
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund
fi

# ---------------------------------------------------------------- 3. lint / type-check
# Strict types everywhere (TypeScript and Svelte), and lint: a failure here fails the test command.
npx tsc --noEmit -p tsconfig.json
npx svelte-check --tsconfig ./tsconfig.json --threshold error --output machine
npx eslint .

# ---------------------------------------------------------------- 4. build (browser tests need dist/)
if [ -f vite.config.ts ]; then
  npm run build
fi

# ---------------------------------------------------------------- 5. tests
mkdir -p test-results
rm -f test-results/vitest.json
set +e
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
rc=$?
set -e
node -e '
  const fs = require("fs");
  try {
    const r = JSON.parse(fs.readFileSync("test-results/vitest.json", "utf8"));
    const skipped = (r.numPendingTests || 0) + (r.numTodoTests || 0);
    console.log(`Tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
  } catch (e) {
    console.log("test.sh: no vitest summary (" + e.message + ")");
  }
' || true
exit "$rc"
