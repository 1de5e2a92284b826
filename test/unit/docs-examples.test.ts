import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// The scripts docs show are the files the tests run: a script changed in one place only fails here.

const DOCS = join(import.meta.dirname, '..', '..', 'docs');

it('docs/api.md shows docs/examples/blocked-webhook.mjs as it is', () => {
  const script = readFileSync(join(DOCS, 'examples', 'blocked-webhook.mjs'), 'utf8');
  expect(readFileSync(join(DOCS, 'api.md'), 'utf8')).toContain(`\`\`\`js\n${script}\`\`\``);
});
