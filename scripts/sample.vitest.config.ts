import { defineConfig } from 'vitest/config';

// Only for `npm run sample` (scripts/make-sample.test.ts): not part of `npm test`.
export default defineConfig({
  test: {
    include: ['scripts/make-sample.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
