// ESLint runs only the promise rules that need TypeScript's type checker (Biome, which does the
// rest, infers promise types from this project's code alone, so it misses an unawaited
// fs/promises or graphql-ws call). A forgotten await loses an error; on the write side, an answer.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // the compiled CLI (server/bin/compiled.js) is built from the sources linted here
  { ignores: ['dist/**'] },
  // AssemblyScript, outside the TypeScript project (its compiler checks it: npm run build:scanner)
  { ignores: ['**/*.as.ts'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['node_modules/**', 'web/dist/**', 'web/src/graphql-env.d.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
