import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, validate } from 'graphql';
import { expect, it } from 'vitest';
import { loomSchema } from '../../schema/index';

// The scripts docs show are the files the tests run: a script changed in one place only fails here.

const DOCS = join(import.meta.dirname, '..', '..', 'docs');

it('docs/api.md shows docs/examples/blocked-webhook.mjs as it is', () => {
  const script = readFileSync(join(DOCS, 'examples', 'blocked-webhook.mjs'), 'utf8');
  expect(readFileSync(join(DOCS, 'api.md'), 'utf8')).toContain(`\`\`\`js\n${script}\`\`\``);
});

it('docs/api.md shows only GraphQL the schema takes: every operation of every example validates', () => {
  const blocks = [...readFileSync(join(DOCS, 'api.md'), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length).toBeGreaterThan(20);
  const invalid = blocks.flatMap((block) =>
    parse(block)
      .definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
      .flatMap((operation) =>
        validate(loomSchema(), { kind: Kind.DOCUMENT, definitions: [operation] })
          // an example may show an operation's body without declaring the variables it names
          .filter((e) => !/^Variable "\$\w+" is not defined/.test(e.message))
          .map((e) => `${e.message} in: ${block.split('\n')[0]}`),
      ),
  );
  expect(invalid).toEqual([]);
});
