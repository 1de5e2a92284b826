import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadFromSDL, minifyIntrospection, outputIntrospectionFile } from 'gql.tada/internal';
import { printLoomSchema } from './index';

// `npm run schema:print`: rewrites schema/schema.graphql from the code, then the dashboard's
// web/src/graphql-env.d.ts from that file (the schema as a type: gql.tada types every web
// document with it). `npm run typecheck` runs it with --refresh first.

export const SDL_FILE = fileURLToPath(new URL('./schema.graphql', import.meta.url));
export const WEB_TYPES_FILE = fileURLToPath(new URL('../web/src/graphql-env.d.ts', import.meta.url));

/** graphql-env.d.ts for an SDL file, exactly as `gql.tada generate output` writes it. */
export async function webTypesFor(sdlFile: string): Promise<string> {
  const { introspection } = await loadFromSDL({ file: sdlFile, assumeValid: true }).load();
  return outputIntrospectionFile(minifyIntrospection(introspection), { fileType: '.d.ts', shouldPreprocess: true });
}

const read = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/**
 * Brings both files up to date. `check`: writes nothing. Answers the files that were stale (and,
 * unless checking, are now rewritten).
 */
async function refresh(check: boolean): Promise<string[]> {
  const stale: string[] = [];
  const sdl = printLoomSchema();
  if (read(SDL_FILE) !== sdl) {
    stale.push('schema/schema.graphql');
    if (!check) writeFileSync(SDL_FILE, sdl);
  }
  // a check of a stale SDL file stops there: the web types follow the file, not the code
  if (check && stale.length > 0) return stale;
  const webTypes = await webTypesFor(SDL_FILE);
  if (read(WEB_TYPES_FILE) !== webTypes) {
    stale.push('web/src/graphql-env.d.ts');
    if (!check) writeFileSync(WEB_TYPES_FILE, webTypes);
  }
  return stale;
}

// (no flag) rewrites what is stale, quietly. --check: fails when a file is stale, writes nothing.
// --refresh (npm run typecheck): rewrites what is stale and fails saying so, so that a stale
// file in a commit fails CI even though the run fixed the working tree.
async function main(mode: 'write' | 'check' | 'refresh'): Promise<void> {
  const stale = await refresh(mode === 'check');
  if (stale.length === 0 || mode === 'write') return;
  const what = stale.join(' and ');
  console.error(mode === 'check' ? `${what}: stale, run \`npm run schema:print\`` : `${what}: stale, now rewritten; commit the change`);
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.includes('--check') ? 'check' : process.argv.includes('--refresh') ? 'refresh' : 'write');
}
