import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { raw } from '../helpers/raw-http';
import { line, prompt } from '../helpers/records';
import { askPermission, installHooks, removeHookedDir, type ToolCall } from '../helpers/stand-in-claude';
import { until } from '../helpers/wait';

// Answering what blocks a session: a stand-in Claude Code (test/stand-ins/claude.mjs) asks
// through the hooks `loom hooks install` put in its settings.json, and races them with its own
// terminal the way Claude Code does; the answers come over GraphQL.

let root: string;
let claudeDir: string;
let transcript: string;
let kernel: TestKernel;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-answers-'));
  claudeDir = join(root, 'claude');
  const project = join(root, 'projects', '-home-dev-demo');
  mkdirSync(project, { recursive: true });
  transcript = join(project, 's1.jsonl');
  writeFileSync(transcript, line(prompt('p1', null, 'clean up the build')));
  const stateDir = join(root, 'state');
  installHooks(claudeDir, stateDir);
  kernel = await startTestKernel(join(root, 'projects'), { stateDir });
});
afterEach(async () => {
  await kernel.close();
  removeHookedDir(root);
});

/** The stand-in asking for one tool call in this test's session. */
const ask = (call: ToolCall) => askPermission(claudeDir, transcript, call);

const PENDING = graphql(`
  {
    permissionRequests { id kind toolName input canAlwaysAllow questions { question multiSelect options { label } } plan state sessionId }
  }
`);
const BLOCKED = graphql(`{ feed { blocked { id status block { kind text request { id toolName state } } } working { id } } }`);
const ALLOW = graphql(`
  mutation ($id: ID!, $always: Boolean, $key: String!) { allowTool(requestId: $id, always: $always, idempotencyKey: $key) { id state answeredBy answer } }
`);
const DENY = graphql(
  `mutation ($id: ID!, $message: String!, $key: String!) { denyTool(requestId: $id, message: $message, idempotencyKey: $key) { id state answer } }`,
);
const ANSWER = graphql(`
  mutation ($id: ID!, $answers: [QuestionAnswerInput!]!, $key: String!) { answerQuestion(requestId: $id, answers: $answers, idempotencyKey: $key) { id state answer } }
`);
const APPROVE = graphql(
  `mutation ($id: ID!, $mode: PlanExitMode, $key: String!) { approvePlan(requestId: $id, mode: $mode, idempotencyKey: $key) { id state } }`,
);
const REJECT = graphql(
  `mutation ($id: ID!, $message: String!, $key: String!) { rejectPlan(requestId: $id, message: $message, idempotencyKey: $key) { id state } }`,
);
const ACTIONS = graphql(`{ actions { seq actor action host sessionId requestId summary result message } }`);

/** The one pending request, once the kernel holds it. */
async function pending(): Promise<ResultOf<typeof PENDING>['permissionRequests'][number]> {
  return until(async () => (await kernel.gql(PENDING)).data.permissionRequests[0], 'a pending permission request');
}

let keys = 0;
const key = () => `key-${++keys}`;

describe('a permission request held through the hook', () => {
  it('shows in feedChanged as a block with its request, and allowTool lets the stand-in run the tool', async () => {
    const changes = iterate(kernel.ws(), graphql(`subscription { feedChanged { sessionId goals { status block { kind request { id toolName input } } } } }`));
    const { result } = ask({ tool: 'Bash', input: { command: 'rm -rf build', description: 'Remove the build' } });
    let blocked: { id: string; toolName: string; input: unknown } | null = null;
    for await (const frame of changes) {
      const goal = frame.data?.feedChanged.goals.at(-1);
      if (goal?.status === 'BLOCKED' && goal.block?.request) {
        blocked = goal.block.request;
        break;
      }
    }
    expect(blocked).toMatchObject({ toolName: 'Bash', input: { command: 'rm -rf build' } });
    expect(blocked!.id).toMatch(/^test:[\w-]+$/);
    const feed = (await kernel.gql(BLOCKED)).data.feed;
    expect(feed.blocked[0].block).toMatchObject({ kind: 'PERMISSION', request: { id: blocked!.id, state: 'PENDING' } });

    const allowed = await kernel.gql(ALLOW, { id: blocked!.id, key: key() });
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.allowTool).toEqual({ id: blocked!.id, state: 'ANSWERED', answeredBy: 'local', answer: 'allowed' });
    const ran = await result;
    expect(ran.by).toBe('hook');
    expect(ran.decision).toEqual({ behavior: 'allow' });
    expect(readFileSync(transcript, 'utf8')).toContain('ran Bash');
    // answered: the card leaves the blocked column
    await until(async () => (await kernel.gql(BLOCKED)).data.feed.blocked.length === 0, 'the goal unblocked');
    expect((await kernel.gql(PENDING)).data.permissionRequests).toEqual([]);
  });

  it('always-allow sends back the rules Claude Code suggested, and nothing Loom made up', async () => {
    const suggestion = { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test' }], behavior: 'allow', destination: 'localSettings' };
    const { result } = ask({ tool: 'Bash', input: { command: 'npm test' }, suggestions: [suggestion] });
    const request = await pending();
    expect(request.canAlwaysAllow).toBe(true);
    await kernel.gql(ALLOW, { id: request.id, always: true, key: key() });
    expect((await result).decision).toEqual({ behavior: 'allow', updatedPermissions: [suggestion] });
  });

  it('refuses always-allow when Claude Code offered no rule', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'make' }, terminal: 'allow', terminalAfter: 1500 });
    const request = await pending();
    const refused = await kernel.gql(ALLOW, { id: request.id, always: true, key: key() });
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await result).by).toBe('terminal');
  });

  it('denies with a message Claude reads', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'git push --force' } });
    const request = await pending();
    const denied = await kernel.gql(DENY, { id: request.id, message: 'not on main, open a PR', key: key() });
    expect(denied.data.denyTool).toMatchObject({ state: 'ANSWERED', answer: 'denied: not on main, open a PR' });
    const ran = await result;
    expect(ran.decision).toEqual({ behavior: 'deny', message: 'not on main, open a PR' });
    expect(readFileSync(transcript, 'utf8')).toContain('not on main, open a PR');
  });

  it('answers an AskUserQuestion with its answers map, multi-select joined as Claude Code joins it', async () => {
    const questions = [
      {
        question: 'Which framework?',
        header: 'Framework',
        multiSelect: false,
        options: [
          { label: 'React', description: '' },
          { label: 'Vue', description: '' },
        ],
      },
      {
        question: 'Which sections?',
        header: 'Sections',
        multiSelect: true,
        options: [
          { label: 'Intro', description: '' },
          { label: 'Usage', description: '' },
        ],
      },
    ];
    const { result } = ask({ tool: 'AskUserQuestion', input: { questions } });
    const request = await pending();
    expect(request.kind).toBe('QUESTION');
    expect(request.questions.map((q) => [q.question, q.multiSelect, q.options.map((o) => o.label)])).toEqual([
      ['Which framework?', false, ['React', 'Vue']],
      ['Which sections?', true, ['Intro', 'Usage']],
    ]);
    const feed = (await kernel.gql(BLOCKED)).data.feed;
    expect(feed.blocked[0].block).toMatchObject({ kind: 'QUESTION', text: 'Which framework?' });
    const missing = await kernel.gql(ANSWER, { id: request.id, answers: [{ question: 'Which framework?', selected: ['React'] }], key: key() });
    expect(missing.errors?.[0].message).toContain('Which sections?');
    const answers = [
      { question: 'Which framework?', selected: ['React'] },
      { question: 'Which sections?', selected: ['Intro', 'Usage'] },
    ];
    expect((await kernel.gql(ANSWER, { id: request.id, answers, key: key() })).data.answerQuestion.state).toBe('ANSWERED');
    const ran = await result;
    // in the default mode the PreToolUse hook lets the call go on at once: the PermissionRequest hook answers
    expect(ran.by).toBe('hook');
    expect(ran.decision?.updatedInput).toEqual({ questions, answers: { 'Which framework?': 'React', 'Which sections?': 'Intro, Usage' } });
    const written = JSON.parse(readFileSync(transcript, 'utf8').trim().split('\n').at(-1)!) as { toolUseResult: string };
    expect(written.toolUseResult).toContain('"Which sections?"="Intro, Usage"');
  });

  it('answers a question through PreToolUse in a mode where no PermissionRequest comes (auto), before any dialog', async () => {
    const questions = [
      {
        question: 'Deploy now?',
        header: 'Deploy',
        multiSelect: false,
        options: [
          { label: 'Yes', description: '' },
          { label: 'Later', description: '' },
        ],
      },
    ];
    const { result } = ask({ tool: 'AskUserQuestion', input: { questions }, mode: 'auto' });
    const request = await pending();
    await kernel.gql(ANSWER, { id: request.id, answers: [{ question: 'Deploy now?', selected: ['Later'] }], key: key() });
    const ran = await result;
    expect(ran.by).toBe('pre-tool-use');
    expect(ran.decision).toEqual({ behavior: 'allow', updatedInput: { questions, answers: { 'Deploy now?': 'Later' } } });
  });

  it('approves a plan, echoing its input and leaving plan mode into the chosen mode', async () => {
    const input = { plan: '## Plan\n\n1. build\n2. ship', planFilePath: '/home/dev/.claude/plans/p.md' };
    const { result } = ask({ tool: 'ExitPlanMode', input });
    const request = await pending();
    expect(request).toMatchObject({ kind: 'PLAN_APPROVAL', plan: '## Plan\n\n1. build\n2. ship' });
    await kernel.gql(APPROVE, { id: request.id, mode: 'ACCEPT_EDITS', key: key() });
    expect((await result).decision).toEqual({
      behavior: 'allow',
      updatedInput: input,
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    });
  });

  it('reads a plan that is only in its file, from inside the plans folder and nowhere else', async () => {
    mkdirSync(join(root, 'plans'));
    writeFileSync(join(root, 'plans', 'calm-river.md'), '# Plan\n\nmigrate, then verify');
    const inFile = ask({ tool: 'ExitPlanMode', input: { planFilePath: join(root, 'plans', 'calm-river.md') } });
    const request = await pending();
    expect(request.plan).toBe('# Plan\n\nmigrate, then verify');
    await kernel.gql(APPROVE, { id: request.id, key: key() });
    // the input goes back as it came: the plan stays in its file
    expect((await inFile.result).decision).toEqual({ behavior: 'allow', updatedInput: { planFilePath: join(root, 'plans', 'calm-river.md') } });

    writeFileSync(join(root, 'secret.md'), 'not a plan');
    const outside = ask({ tool: 'ExitPlanMode', input: { planFilePath: join(root, 'plans', '..', 'secret.md') } });
    const other = await pending();
    expect(other.plan).toBeNull();
    await kernel.gql(REJECT, { id: other.id, message: 'no', key: key() });
    await outside.result;
  });

  it('rejects a plan with a message, which keeps Claude planning', async () => {
    const { result } = ask({ tool: 'ExitPlanMode', input: { plan: 'ship it' } });
    const request = await pending();
    await kernel.gql(REJECT, { id: request.id, message: 'add a rollback step', key: key() });
    expect((await result).decision).toEqual({ behavior: 'deny', message: 'add a rollback step' });
  });

  it('answers once: a second answer gets CONFLICT naming who answered first; the same key again gets the first answer', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'ls' } });
    const request = await pending();
    const first = key();
    await kernel.gql(ALLOW, { id: request.id, key: first });
    const again = await kernel.gql(ALLOW, { id: request.id, key: first });
    expect(again.errors).toBeUndefined();
    expect(again.data.allowTool.state).toBe('ANSWERED');
    const second = await kernel.gql(DENY, { id: request.id, message: 'no', key: key() });
    expect(second.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(second.errors?.[0].message).toContain('already answered by local (allowed)');
    expect((await result).decision).toEqual({ behavior: 'allow' });
  });
});

describe('the terminal and the hook race', () => {
  it('when the terminal allows first, the request closes, the hook exits without a decision, and a late allowTool gets CONFLICT naming the terminal', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'npm run build' }, terminal: 'allow', terminalAfter: 1000 });
    const request = await pending();
    const ran = await result;
    expect(ran.by).toBe('terminal');
    expect(ran.hooks?.[0]).toMatchObject({ code: 0, out: '' });
    const late = await kernel.gql(ALLOW, { id: request.id, key: key() });
    expect(late.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(late.errors?.[0].message).toBe('already answered at the terminal');
    expect((await kernel.gql(PENDING)).data.permissionRequests).toEqual([]);
    // the goal says so
    const { feed } = (
      await kernel.gql(graphql(`{ feed { working { answeredRequest { state answeredBy } } completed { answeredRequest { state answeredBy } } } }`))
    ).data;
    expect([...feed.working, ...feed.completed].map((g) => g.answeredRequest)).toContainEqual({ state: 'ANSWERED_AT_TERMINAL', answeredBy: 'terminal' });
  });

  it('when the terminal denies without feedback, Claude Code kills the hook and the request is withdrawn', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'rm -rf /tmp/x' }, terminal: 'deny', terminalAfter: 1000 });
    const request = await pending();
    expect((await result).by).toBe('terminal');
    await until(async () => (await kernel.gql(PENDING)).data.permissionRequests.length === 0, 'the request closed');
    const late = await kernel.gql(ALLOW, { id: request.id, key: key() });
    expect(late.errors?.[0].extensions?.code).toBe('CONFLICT');
    expect(late.errors?.[0].message).toContain('Claude Code stopped asking');
  });

  it("does not hold a subagent's request while the person is here: the hook returns at once and the dialog shows", async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'pytest' }, agent: 'a1', terminal: 'allow' });
    const ran = await result;
    expect(ran.by).toBe('terminal');
    expect(ran.hooks?.[0]).toMatchObject({ code: 0, out: '' });
    expect(ran.hooks![0].ms).toBeLessThan(5000);
    expect((await kernel.gql(PENDING)).data.permissionRequests).toEqual([]);
  });

  it("holds a subagent's request while away, for an answer from the dashboard", async () => {
    const away = await kernel.gql(graphql(`mutation { setAway(on: true) { on since } }`));
    expect(away.data.setAway.on).toBe(true);
    const { result } = ask({ tool: 'Bash', input: { command: 'pytest' }, agent: 'a1', terminal: 'deny' });
    const request = await pending();
    await kernel.gql(ALLOW, { id: request.id, key: key() });
    expect((await result).by).toBe('hook');
  });

  it('a hook whose kernel is down exits at once without a decision', async () => {
    await kernel.close();
    const { result } = ask({ tool: 'Bash', input: { command: 'ls' }, terminal: 'allow', terminalAfter: 3000 });
    const ran = await result;
    expect(ran.by).toBe('terminal');
    expect(ran.hooks?.[0]).toMatchObject({ code: 0, out: '' });
    expect(ran.hooks![0].ms).toBeLessThan(3000);
    kernel = await startTestKernel(join(root, 'projects'), { stateDir: kernel.stateDir });
  });
});

describe('the audit log', () => {
  it('holds every answer: who, what, which session and request, and how it ended', async () => {
    const { result } = ask({ tool: 'Bash', input: { command: 'ls' } });
    const request = await pending();
    await kernel.gql(ALLOW, { id: request.id, key: key() });
    await kernel.gql(DENY, { id: request.id, message: 'late', key: key() });
    await result;
    const [conflict, ok] = (await kernel.gql(ACTIONS)).data.actions;
    expect(ok).toMatchObject({
      actor: 'local',
      action: 'allowTool',
      host: 'test',
      sessionId: request.sessionId,
      requestId: request.id,
      summary: 'Bash: allowed',
      result: 'OK',
    });
    expect(conflict).toMatchObject({ action: 'denyTool', result: 'CONFLICT', message: 'already answered by local (allowed)' });
    expect(conflict.seq).toBe(ok.seq + 1);
    // kept in the state dir, one JSON line each
    const lines = readFileSync(join(kernel.stateDir, 'actions.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).action)).toEqual(['allowTool', 'denyTool']);
  });
});

describe('the hook route', () => {
  const post = (headers: Record<string, string>, body: string) =>
    raw(kernel.port, { method: 'POST', path: '/hook/permission-request', headers: { 'content-type': 'application/json', ...headers }, body });

  it('refuses input that is not a PermissionRequest hook input with 400, holds nothing, and keeps serving', async () => {
    const token = { 'x-loom-token': kernel.token };
    expect((await post(token, 'not json')).status).toBe(400);
    expect((await post(token, JSON.stringify({ session_id: '../../etc', tool_name: 'Bash', tool_input: {} }))).status).toBe(400);
    expect((await post(token, JSON.stringify({ session_id: 's1', tool_name: 'Bash', tool_input: 'rm -rf /' }))).status).toBe(400);
    // past 4 MiB the kernel stops reading: a 400, or the connection cut before it
    const huge = await post(token, `{"session_id":"s1","tool_name":"Bash","tool_input":{"x":"${'a'.repeat(5 * 2 ** 20)}"}}`).catch(() => ({ status: 0 }));
    expect([0, 400]).toContain(huge.status);
    expect((await kernel.gql(PENDING)).data.permissionRequests).toEqual([]);
    expect(kernel.logs.some((l) => l.includes('a PermissionRequest hook sent input Loom cannot read'))).toBe(true);
  });

  it("opens only with the token in a header: a browser's cookie is refused, and no token at all is 401", async () => {
    const signIn = await raw(kernel.port, { path: `/?token=${encodeURIComponent(kernel.token)}`, headers: { 'sec-fetch-site': 'none' } });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0];
    const input = JSON.stringify({ session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } });
    // the cookie counts only from the kernel's own page: sent from there, it is still refused here
    expect((await post({ cookie, origin: `http://127.0.0.1:${kernel.port}` }, input)).status).toBe(403);
    expect((await post({ cookie }, input)).status).toBe(401);
    expect((await post({}, input)).status).toBe(401);
    expect((await kernel.gql(PENDING)).data.permissionRequests).toEqual([]);
  });
});
