import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `source` export condition),
// so unit tests need no build; integration tests that spawn processes use the built dist.
// No `module` condition: it picks bundler-only builds Node cannot load (the AWS SDK's dist-es).
const conditions = ['source', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    projects: [
      { extends: true, test: { name: 'common', include: ['common/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'infra', include: ['infra/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'worker', include: ['worker/src/**/*.test.ts'], testTimeout: 120_000 } },
      { extends: true, test: { name: 'api', include: ['api/src/**/*.test.ts'], testTimeout: 120_000 } },
      { extends: true, test: { name: 'cli', include: ['cli/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'jsdom' } },
      // The benchmarks' own arithmetic (their verdicts); the benchmarks themselves run with npm run bench:*.
      { extends: true, test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/**/*.itest.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'resilience',
          include: ['tests/**/*.rtest.ts'],
          // Kills and restarts processes of its own: a group of its own, never beside other test files.
          sequence: { groupOrder: 1 },
          testTimeout: 600_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      // npm run test:soak only (scripts/soak.ts): long, and run while the machine is loaded on purpose.
      ...(process.env.SOAK
        ? [{ extends: true as const, test: { name: 'soak', include: ['tests/**/*.stest.ts'], testTimeout: 1_800_000, hookTimeout: 300_000, fileParallelism: false } }]
        : []),
    ],
  },
});
