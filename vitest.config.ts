import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: without this alias vite loads its ESM build for our code
    // while yoga and Pothos load the CJS build, and graphql refuses the mix.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/build-web.ts', 'test/setup/build-cli.ts'],
    // Vitest's default is one file per core less one: one at a time on two cores. Most files wait
    // on kernels, sshd and Chromium more than they compute; two at a time took the suite from
    // 974–988 s to 648–662 s on two cores. Three took as long, and a Chromium test timed out.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
