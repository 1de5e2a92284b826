import {
  buildSchema,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  getNamedType,
  getNullableType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { loomSchema } from '../../schema/index';
import {
  claimedBy,
  fieldsFor,
  hostRenamer,
  inlineListedIdVariables,
  mayBeLeftOut,
  namesHost,
  rewriteDocumentIds,
  rewriteResultIds,
  rewriteVariableIds,
} from '../../schema/remote/id-rewrite';

// A hub names a linked host `gpu`; that host's kernel calls itself `box`. Ids going out are
// renamed gpu → box, ids coming back box → gpu, by the schema's ID type and nothing else. A
// small schema of our own holds every place an ID can stand (arguments at any depth, input
// objects, lists, interfaces and unions); the last tests run over the real one.

const schema = buildSchema(`
  type Query {
    session(id: ID!): Session
    sessions(ids: [ID!], filter: Filter): [Session!]!
    search(text: String): [Session!]!
    node(id: ID!): Node
  }
  type Mutation {
    clear(ids: [ID!]!, key: String!): Int
  }
  input Filter {
    parent: ID
    hosts: [ID!]
    text: String
    nested: Filter
  }
  interface Node { id: ID! }
  type Session implements Node {
    id: ID!
    key: String!
    name: String!
    related: [ID!]!
    meta: JSON
    parent: Session
    subagents: [Session!]!
    goal(id: ID!): Goal
    blocks: [Block!]!
  }
  type Goal implements Node {
    id: ID!
    sessionId: ID
    title: String!
  }
  union Block = Text | Tool
  type Text { text: String! }
  type Tool { toolUseId: ID! name: String! }
  scalar JSON
`);

const out = hostRenamer('gpu', 'box');
const ours = namesHost('gpu');
const back = claimedBy('box', 'gpu');

/** The document with its IDs renamed for `box`, printed, and the variables found to carry IDs. */
function outgoing(text: string, on = schema) {
  const { document, idVariables } = rewriteDocumentIds(on, parse(text), out, ours);
  return { text: print(document), idVariables: [...idVariables].sort() };
}

describe('renaming ids between a hub and a host', () => {
  it('renames the host part of an id going out, and the host’s own id', () => {
    expect(out('gpu:abc/def')).toBe('box:abc/def');
    expect(out('gpu:abc:uuid')).toBe('box:abc:uuid');
    expect(out('gpu')).toBe('box');
  });

  it('leaves ids of other hosts alone going out, a host whose name starts with the alias included', () => {
    expect(out('laptop:abc')).toBe('laptop:abc');
    expect(out('gpu2:abc')).toBe('gpu2:abc');
    expect(out('gpux')).toBe('gpux');
    expect(out('laptop:gpu:abc')).toBe('laptop:gpu:abc');
  });

  it('tells a host’s ids from those of a host whose name starts with it', () => {
    expect(['gpu', 'gpu:a', 'gpu:a:b'].map(ours)).toEqual([true, true, true]);
    expect(['gpu2', 'gpu2:a', 'xgpu:a', 'laptop:gpu:a', 'gp:a', ''].map(ours)).toEqual([false, false, false, false, false, false]);
  });

  it('names every id coming back by the alias, whatever host it claims, so it can lead only back to that host', () => {
    expect(back('box:abc/def')).toBe('gpu:abc/def');
    expect(back('box')).toBe('gpu');
    expect(back('laptop:abc')).toBe('gpu:abc');
    expect(back('box2:abc')).toBe('gpu:abc');
    expect(back('abc')).toBe('gpu:abc');
    expect(back('laptop')).toBe('gpu:laptop');
  });
});

describe('the ids of a document going to a host', () => {
  it('renames an ID argument and leaves a String argument that looks like an id as it is', () => {
    const { text } = outgoing(`{ session(id: "gpu:s1") { name } search(text: "gpu:s1") { name } }`);
    expect(text).toContain('session(id: "box:s1")');
    expect(text).toContain('search(text: "gpu:s1")');
  });

  it('renames ID arguments of fields below the root, in fragments too', () => {
    const { text } = outgoing(`
      { session(id: "gpu:s1") { goal(id: "gpu:s1/g1") { id } ...F } }
      fragment F on Session { parent { goal(id: "gpu:s0/g9") { id } } }`);
    expect(text).toContain('goal(id: "box:s1/g1")');
    expect(text).toContain('goal(id: "box:s0/g9")');
    expect(text).not.toContain('"gpu:');
  });

  it('renames ID fields of input objects at any depth, and leaves their String fields', () => {
    const { text } = outgoing(`{ sessions(filter: { parent: "gpu:p", text: "gpu:t", hosts: ["gpu:h"], nested: { parent: "gpu:q" } }) { id } }`);
    expect(text).toContain('parent: "box:p"');
    expect(text).toContain('text: "gpu:t"');
    expect(text).toContain('hosts: ["box:h"]');
    expect(text).toContain('nested: {parent: "box:q"}');
  });

  it('keeps only the host’s own ids in a list, dropping those of other hosts and of a host whose name starts with its alias', () => {
    const { text } = outgoing(`{ sessions(ids: ["gpu:a", "laptop:b", "gpu2:c", "gpu:d"]) { id } }`);
    expect(text).toContain('sessions(ids: ["box:a", "box:d"])');
  });

  it('keeps an id of another host given alone, for the host to refuse', () => {
    expect(outgoing(`{ session(id: "laptop:s1") { id } }`).text).toContain('session(id: "laptop:s1")');
  });

  it('renames the ids of a mutation’s arguments', () => {
    const { text } = outgoing(`mutation { clear(ids: ["gpu:a/1", "laptop:b/2"], key: "gpu:a/1") }`);
    expect(text).toContain('clear(ids: ["box:a/1"], key: "gpu:a/1")');
  });

  it('names the variables that carry IDs, in arguments, input objects and lists, and not the others', () => {
    const { idVariables } = outgoing(`
      query($id: ID!, $text: String, $parent: ID, $listed: ID, $ids: [ID!], $key: String) {
        session(id: $id) { goal(id: $id) { id } }
        search(text: $text) { id }
        sessions(ids: [$listed], filter: { parent: $parent, text: $key }) { id }
        node(id: "gpu:n") { id }
        more: sessions(ids: $ids) { id }
      }`);
    expect(idVariables).toEqual(['id', 'ids', 'listed', 'parent']);
  });

  // A variable's default is an ID literal too. The hub's fast path (forward-whole.ts) sends the
  // client's document with the client's variables, so a default the client relies on reaches the
  // host still naming the hub's alias (delegate.ts is not affected: it sends every value,
  // defaults included).
  it('renames the default value of an ID variable, a list cut to the host’s own', () => {
    const { text } = outgoing(`query($id: ID = "gpu:s1", $ids: [ID!] = ["gpu:a", "laptop:b"]) { session(id: $id) { id } sessions(ids: $ids) { id } }`);
    expect(text).toContain('$id: ID = "box:s1"');
    expect(text).toContain('$ids: [ID!] = ["box:a"]');
  });

  it('makes a new document and leaves the one it was given as it was', () => {
    const original = parse(`{ session(id: "gpu:s1") { id } }`);
    const before = print(original);
    rewriteDocumentIds(schema, original, out, ours);
    expect(print(original)).toBe(before);
  });
});

describe('the variables of a request going to a host', () => {
  it('renames the ID variables, keeps only the host’s own ids in a list, and leaves the rest', () => {
    const variables = { id: 'gpu:s1', ids: ['gpu:a', 'laptop:b', 'gpu2:c', 'gpu:d'], other: 'laptop:x', text: 'gpu:t', missing: undefined };
    const sent = rewriteVariableIds(variables, new Set(['id', 'ids', 'other', 'missing']), out, ours);
    expect(sent).toEqual({ id: 'box:s1', ids: ['box:a', 'box:d'], other: 'laptop:x', text: 'gpu:t', missing: undefined });
  });

  it('copies the variables instead of changing the caller’s', () => {
    const variables = { id: 'gpu:s1', ids: ['gpu:a'] };
    rewriteVariableIds(variables, new Set(['id', 'ids']), out, ours);
    expect(variables).toEqual({ id: 'gpu:s1', ids: ['gpu:a'] });
  });

  it('puts ID variables that stand in a list in as their values, so the list can be cut to one host', () => {
    const operation = parse(`
      query($a: ID!, $b: ID, $c: ID!, $name: String, $unset: ID) {
        sessions(ids: [$a, $b, "gpu:literal", $unset]) { id }
        search(text: $name) { id }
        session(id: $c) { id }
      }`).definitions[0] as OperationDefinitionNode;
    const values = { a: 'gpu:1', b: 'laptop:2', c: 'gpu:3', name: 'x' };
    const inlined = operation.selectionSet.selections.map((field) => inlineListedIdVariables(field as FieldNode, operation.variableDefinitions!, values));
    const printed = inlined.map((f) => print(f));
    expect(printed[0]).toContain('sessions(ids: ["gpu:1", "laptop:2", "gpu:literal", $unset])');
    expect(printed[1]).toContain('search(text: $name)');
    expect(printed[2]).toContain('session(id: $c)');

    // the whole way out: the listed ids cut to the host's, the one left a variable renamed
    const document = { kind: Kind.DOCUMENT, definitions: [{ ...operation, selectionSet: { kind: Kind.SELECTION_SET, selections: inlined } }] } as const;
    const rewritten = rewriteDocumentIds(schema, document, out, ours);
    expect(print(rewritten.document)).toContain('sessions(ids: ["box:1", "box:literal", $unset])');
    expect(rewriteVariableIds(values, rewritten.idVariables, out, ours)).toMatchObject({ c: 'box:3', name: 'x' });
  });

  it('does not put in a String variable that stands in a list', () => {
    const operation = parse(`query($t: String) { search(text: $t) { blocks { ... on Text { text } } } }`).definitions[0] as OperationDefinitionNode;
    const field = operation.selectionSet.selections[0] as FieldNode;
    expect(inlineListedIdVariables(field, operation.variableDefinitions!, { t: 'gpu:x' })).toBe(field);
  });
});

describe('the ids of a host’s answer', () => {
  /** the first field of a query, the selection of the root field and its fragments */
  function asked(text: string) {
    const document = parse(text);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    const root = (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
    const type = schema.getQueryType()!.getFields()[root.name.value].type;
    return { type, selection: root.selectionSet, fragments };
  }

  it('renames every ID field asked for, at any depth, in lists and under aliases, and no other string', () => {
    const { type, selection, fragments } = asked(`{ session(id: "gpu:s1") {
      ident: id key name related meta parent { id } kids: subagents { id parent { id } } goal(id: "x") { id sessionId title }
    } }`);
    const value = {
      ident: 'box:s1',
      key: 'box:s1',
      name: 'box:s1',
      related: ['box:r1', 'laptop:r2'],
      meta: { id: 'box:m' },
      parent: { id: 'box:p' },
      kids: [
        { id: 'box:k1', parent: { id: 'box:s1' } },
        { id: 'box:k2', parent: null },
      ],
      goal: { id: 'box:s1/g', sessionId: 'box:s1', title: 'box:s1' },
      unasked: 'box:u',
    };
    rewriteResultIds(schema, value, type, selection, fragments, back);
    expect(value).toEqual({
      ident: 'gpu:s1',
      key: 'box:s1',
      name: 'box:s1',
      related: ['gpu:r1', 'gpu:r2'],
      meta: { id: 'box:m' },
      parent: { id: 'gpu:p' },
      kids: [
        { id: 'gpu:k1', parent: { id: 'gpu:s1' } },
        { id: 'gpu:k2', parent: null },
      ],
      goal: { id: 'gpu:s1/g', sessionId: 'gpu:s1', title: 'box:s1' },
      unasked: 'box:u',
    });
  });

  it('renames ids asked through fragments and inline fragments, on interfaces and unions, by each object’s __typename', () => {
    const { type, selection, fragments } = asked(`
      { node(id: "gpu:g") {
        __typename ...OnNode ... on Goal { sessionId }
        ... on Session { blocks { __typename ... on Tool { toolUseId name } ... on Text { text } } }
      } }
      fragment OnNode on Node { id }`);
    const goal = { __typename: 'Goal', id: 'box:s/g', sessionId: 'box:s' };
    rewriteResultIds(schema, goal, type, selection, fragments, back);
    expect(goal).toEqual({ __typename: 'Goal', id: 'gpu:s/g', sessionId: 'gpu:s' });

    const session = {
      __typename: 'Session',
      id: 'box:s',
      blocks: [
        { __typename: 'Tool', toolUseId: 'box:t', name: 'box:t' },
        { __typename: 'Text', text: 'box:t' },
      ],
    };
    rewriteResultIds(schema, session, type, selection, fragments, back);
    expect(session).toEqual({
      __typename: 'Session',
      id: 'gpu:s',
      blocks: [
        { __typename: 'Tool', toolUseId: 'gpu:t', name: 'box:t' },
        { __typename: 'Text', text: 'box:t' },
      ],
    });
  });

  it('renames a list of objects, each by its own fields, and passes a null through', () => {
    const { type, selection, fragments } = asked(`{ sessions { id } }`);
    expect(rewriteResultIds(schema, [{ id: 'box:a' }, { id: 'box:b' }], type, selection, fragments, back)).toEqual([{ id: 'gpu:a' }, { id: 'gpu:b' }]);
    expect(rewriteResultIds(schema, null, type, selection, fragments, back)).toBeNull();
  });

  it('leaves an abstract object whose __typename it does not know as it came', () => {
    const { type, selection, fragments } = asked(`{ node(id: "gpu:g") { id } }`);
    const value = { __typename: 'Stranger', id: 'box:x' };
    rewriteResultIds(schema, value, type, selection, fragments, back);
    expect(value.id).toBe('box:x');
  });
});

describe('the fields a selection asks of a type', () => {
  const selectionOf = (text: string) => {
    const document = parse(text);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    return { selection: (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode, fragments };
  };
  const type = (name: string) => schema.getType(name) as GraphQLObjectType;

  it('takes fragments on the type itself and on interfaces it implements, and not those on other types', () => {
    const { selection, fragments } = selectionOf(`
      { node(id: "x") { ...OnNode ... on Goal { sessionId } ... on Session { key } ...OnSession } }
      fragment OnNode on Node { id }
      fragment OnSession on Session { name }`);
    const names = (t: string) => fieldsFor(schema, selection.selectionSet!, type(t), fragments).map((f) => f.name.value);
    expect(names('Goal')).toEqual(['id', 'sessionId']);
    expect(names('Session')).toEqual(['id', 'key', 'name']);
  });

  it('says which fields @skip or @include may have left out of an answer, directly or through a fragment', () => {
    const { selection, fragments } = selectionOf(`
      query($on: Boolean!) { session(id: "x") { id name @include(if: $on) ...F @skip(if: $on) ... @include(if: $on) { parent { id } } } }
      fragment F on Session { key }`);
    const fields = fieldsFor(schema, selection.selectionSet as SelectionSetNode, type('Session'), fragments);
    expect(Object.fromEntries(fields.map((f) => [f.name.value, mayBeLeftOut(f)]))).toEqual({ id: false, name: true, key: true, parent: true });
  });
});

describe('ids in the hub’s real schema', () => {
  const loom = loomSchema();
  const roots = [loom.getQueryType()!, loom.getMutationType()!, loom.getSubscriptionType()!];
  const idArguments = roots.flatMap((root) =>
    Object.values(root.getFields()).flatMap((field) =>
      field.args
        .filter((arg) => getNamedType(arg.type).name === 'ID')
        .map((arg) => ({ root, field: field.name, arg: arg.name, list: isListType(getNullableType(arg.type)) })),
    ),
  );

  it('has ID arguments to rename (if none were found, the next test would prove nothing)', () => {
    const names = idArguments.map((a) => `${a.field}.${a.arg}`);
    expect(names).toEqual(expect.arrayContaining(['session.id', 'transcript.sessionId', 'timeline.sessions', 'clearGoals.ids', 'sessionStream.sessionId']));
  });

  it('renames every ID argument of every root field going out, and cuts every list of them to the host’s ids', () => {
    for (const { root, field, arg, list } of idArguments) {
      const keyword = root === loom.getMutationType() ? 'mutation' : root === loom.getSubscriptionType() ? 'subscription' : 'query';
      const value = list ? '["gpu:a", "laptop:b"]' : '"gpu:a"';
      const { text } = outgoing(`${keyword} { ${field}(${arg}: ${value}) { __typename } }`, loom);
      expect(text, `${field}(${arg})`).toContain(list ? `${arg}: ["box:a"]` : `${arg}: "box:a"`);
    }
  });

  it('renames the ids of a session and everything it links to in a host’s answer', () => {
    const document = parse(`{ session(id: "gpu:s") { id key host { id } parent { id } subagents { id } goals { id anchor { id } } } }`);
    const root = (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
    const value = {
      id: 'box:s',
      key: 's',
      host: { id: 'box' },
      parent: { id: 'box:p' },
      subagents: [{ id: 'box:s/agent-1' }],
      goals: [{ id: 'box:s/g1', anchor: { id: 'box:s:u1' } }],
    };
    rewriteResultIds(loom, value, loom.getQueryType()!.getFields().session.type, root.selectionSet, {}, back);
    expect(value).toEqual({
      id: 'gpu:s',
      key: 's',
      host: { id: 'gpu' },
      parent: { id: 'gpu:p' },
      subagents: [{ id: 'gpu:s/agent-1' }],
      goals: [{ id: 'gpu:s/g1', anchor: { id: 'gpu:s:u1' } }],
    });
  });

  it("renames the id of the subagent a Task call's result links to, inside a page's content", () => {
    const document = parse(`{ transcript(sessionId: "gpu:s") { entries { id content { __typename ... on ToolResultBlock { subagent { id } } } } } }`);
    const root = (document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
    const value = {
      entries: [{ id: 'box:s:u1', content: [{ __typename: 'TextBlock' }, { __typename: 'ToolResultBlock', subagent: { id: 'box:agent-a1' } }] }],
    };
    rewriteResultIds(loom, value, loom.getQueryType()!.getFields().transcript.type, root.selectionSet, {}, back);
    expect(value).toEqual({
      entries: [{ id: 'gpu:s:u1', content: [{ __typename: 'TextBlock' }, { __typename: 'ToolResultBlock', subagent: { id: 'gpu:agent-a1' } }] }],
    });
  });
});
