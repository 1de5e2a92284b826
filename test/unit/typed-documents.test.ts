import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { queryModules, sourceFiles, WEB_SRC, webDocuments } from '../helpers/web-documents';

// The dashboard's documents are typed from schema/schema.graphql (gql.tada, lib/graphql.ts):
// every one lives in a queries.ts, every one is valid against the checked-in schema, and a field
// renamed in a web query fails the web typecheck (proved on a scratch copy of web/).

const ROOT = join(import.meta.dirname, '..', '..');

/** Validation errors of every web document against an SDL text, by document. */
async function invalidDocuments(sdl: string): Promise<Record<string, string[]>> {
  const schema = buildSchema(sdl);
  const invalid: Record<string, string[]> = {};
  // a lone fragment is only checked where a query spreads it
  for (const { name, text } of (await webDocuments()).filter((d) => d.operation !== 'fragment')) {
    const errors = validate(schema, parse(text));
    if (errors.length > 0) invalid[name] = errors.map((e) => e.message);
  }
  return invalid;
}

describe("the dashboard's GraphQL documents", () => {
  it('are all typed graphql(...) documents in a queries.ts', () => {
    const elsewhere = sourceFiles(WEB_SRC)
      .filter((f) => !f.endsWith('/queries.ts') && !f.endsWith('/lib/graphql.ts'))
      .filter((f) => /graphql\(|`\s*(query|mutation|subscription)\b|`\s*\{\s*\w+\s*[({]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(WEB_SRC, f));
    expect(elsewhere).toEqual([]);
    expect(queryModules().length).toBeGreaterThanOrEqual(6);
  });

  it('are valid against the checked-in schema/schema.graphql', async () => {
    expect((await webDocuments()).length).toBeGreaterThanOrEqual(20);
    expect(await invalidDocuments(readFileSync(join(ROOT, 'schema', 'schema.graphql'), 'utf8'))).toEqual({});
  });

  it('stop being valid when the schema renames a field they ask for (what `gql.tada check` in `npm run typecheck` reports)', async () => {
    const sdl = readFileSync(join(ROOT, 'schema', 'schema.graphql'), 'utf8');
    const renamed = sdl.replace(/(type TranscriptPage \{[^}]*?)\bmaxSequence:/, '$1highestSequence:');
    expect(renamed).not.toBe(sdl);
    const invalid = await invalidDocuments(renamed);
    expect(invalid['chat/queries.ts TRANSCRIPT_PAGE']).toEqual([expect.stringContaining('Cannot query field "maxSequence" on type "TranscriptPage"')]);
    expect(Object.keys(invalid)).toEqual(['chat/queries.ts TRANSCRIPT_PAGE']);
  });
});

describe('the web typecheck', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'loom-typed-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('fails on a field renamed in a web query, naming the field (tsc on a scratch copy of web/)', async () => {
    // a scratch copy of web/ beside the real node_modules and root tsconfig
    cpSync(WEB_SRC, join(scratch, 'web', 'src'), { recursive: true });
    cpSync(join(ROOT, 'web', 'tsconfig.json'), join(scratch, 'web', 'tsconfig.json'));
    cpSync(join(ROOT, 'tsconfig.json'), join(scratch, 'tsconfig.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    const queries = join(scratch, 'web', 'src', 'chat', 'queries.ts');
    const original = readFileSync(queries, 'utf8');
    writeFileSync(queries, original.replace('epoch generation maxSequence hasOlder', 'epoch generation maxSeq hasOlder'));
    expect(readFileSync(queries, 'utf8')).not.toBe(original);
    // only the store that reads the page, and what it imports: the whole web takes ~10 s
    writeFileSync(
      join(scratch, 'web', 'tsconfig.probe.json'),
      JSON.stringify({ extends: './tsconfig.json', include: [], files: ['src/chat/transcript-feed.ts'] }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const output = await new Promise<{ code: number; text: string }>((resolve) =>
      execFile(process.execPath, [tsc, '--noEmit', '-p', join(scratch, 'web', 'tsconfig.probe.json')], (err, stdout, stderr) =>
        resolve({ code: typeof err?.code === 'number' ? err.code : err ? 1 : 0, text: stdout + stderr }),
      ),
    );
    expect(output.code).not.toBe(0);
    const errors = output.text.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors.length).toBeGreaterThan(0);
    // every error is the rename's: the code reads `maxSequence`, which the document no longer asks for
    for (const error of errors) expect(error).toMatch(/src\/chat\/transcript-feed\.ts.*Property 'maxSequence' does not exist/);
  }, 60_000);
});
