import { defineConfig } from 'vitest/config';

// One runner for everything: unit tests, MariaDB differential tests (test/harness/mariadb.ts
// starts private servers, seconds each) and the browser tests in test/browser/ (playwright-core).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/dist-cli/**'],
    pool: 'forks',
    // Server start-up and big imports are slow on the 2-core CI machine.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
  },
});
