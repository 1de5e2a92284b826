import { createRequire } from 'node:module';
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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
