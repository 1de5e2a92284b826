import { type OperationDefinitionNode, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loomSchema } from '../../schema/index';
import { GRAPHIQL_EXAMPLES } from '../../server/graphiql/examples';

// GraphiQL opens on these examples: a schema change that breaks one fails here, not in a
// person's browser.

const operations = GRAPHIQL_EXAMPLES.map((text) => {
  const document = parse(text);
  return { text, document, definitions: document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition') };
});

describe("GraphiQL's examples", () => {
  it.each(operations.map((o) => [o.definitions[0]?.name?.value ?? '(unnamed)', o] as const))('%s is valid against the schema', (_, { document }) => {
    expect(validate(loomSchema(), document).map((e) => e.message)).toEqual([]);
  });

  it('are one named operation each, so each tab has a title, and no two share one', () => {
    const names = operations.map((o) => {
      expect(o.document.definitions).toHaveLength(1);
      return o.definitions[0]?.name?.value;
    });
    expect(names).toEqual(['Sessions', 'SessionChanges', 'NeedsYou']);
  });

  it('show the sessions with their state and asks, a subscription, and the feed’s blocked asks', () => {
    const [sessions, changes, needsYou] = operations;
    expect(sessions.text).toMatch(/sessions\(first: \d+\) \{[\s\S]*live \{[\s\S]*goals \{/);
    expect(changes.definitions[0].operation).toBe('subscription');
    expect(needsYou.text).toMatch(/feed \{\s*blocked \{/);
  });
});
