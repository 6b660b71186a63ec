import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Vitest runs one test file at a time on a 2-core machine (cores - 1). Most of our files
    // wait on jwsim child processes, so two at once use both cores: the suite takes about
    // 270 s there instead of about 400 s. Larger machines keep Vitest's default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
