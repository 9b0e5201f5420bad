import { defineConfig } from 'vitest/config';

// Only for the scripts that make committed files (`npm run sample`: scripts/make-sample.test.ts;
// scripts/make-uca-weights.test.ts): not part of `npm test`.
export default defineConfig({
  test: {
    include: ['scripts/make-sample.test.ts', 'scripts/make-uca-weights.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
