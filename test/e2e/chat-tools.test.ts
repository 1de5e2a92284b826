import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { openedTool, toolWidget } from '../helpers/tool-widgets';

// Tool calls in the chat drawn for what they are, in Chromium: an edit as a diff (its library
// loaded only then), a todo list as a checklist, a command with its directory and exit status, a
// file written with its path and size, a plan as Markdown, and a Task's report under a link to
// its subagent's chat.

const AGENT = 'a1b2c3d';

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-chat-tools-'));
  const project = join(root, '-home-dev-demo');
  mkdirSync(join(project, 'tools', 'subagents'), { recursive: true });
  const write = (path: string, records: unknown[]) => writeFileSync(join(project, path), records.map(line).join(''));
  const todos = [
    { content: 'Read the config', status: 'completed', activeForm: 'Reading the config' },
    { content: 'Change the port', status: 'in_progress', activeForm: 'Changing the port' },
    { content: 'Restart the server', status: 'pending', activeForm: 'Restarting the server' },
  ];
  const report = [
    { type: 'text', text: '## Findings\n\n- the docs are **current**' },
    { type: 'text', text: `agentId: ${AGENT} (use SendMessage with to: '${AGENT}' to continue this agent)\n<usage>total_tokens: 120</usage>` },
  ];
  write('tools.jsonl', [
    prompt('p1', null, 'move the server to port 8080'),
    assistant('a1', 'p1', [
      toolUse('edit', 'Edit', { file_path: '/home/dev/demo/config.toml', old_string: 'host = "a"\nport = 80\n', new_string: 'host = "a"\nport = 8080\n' }),
    ]),
    toolResult('r1', 'a1', 'edit', 'The file /home/dev/demo/config.toml has been updated.'),
    assistant('a2', 'r1', [toolUse('todo', 'TodoWrite', { todos })]),
    toolResult('r2', 'a2', 'todo', 'Todos have been modified successfully.'),
    { ...assistant('a3', 'r2', [toolUse('bash', 'Bash', { command: 'git status', description: 'Show the working tree' })]), cwd: '/home/dev/demo/web' },
    toolResult('r3', 'a3', 'bash', 'Exit code 128\nfatal: not a git repository', true),
    assistant('a4', 'r3', [toolUse('write', 'Write', { file_path: '/home/dev/demo/NOTES.md', content: 'port 8080\nok' })]),
    toolResult('r4', 'a4', 'write', 'File created successfully at: /home/dev/demo/NOTES.md'),
    assistant('a5', 'r4', [
      toolUse('task', 'Task', { description: 'Survey the docs', subagent_type: 'Explore', prompt: 'You are **alice**. Survey the docs.' }),
    ]),
    { ...toolResult('r5', 'a5', 'task', report), toolUseResult: { status: 'completed', agentId: AGENT } },
    assistant('a6', 'r5', [toolUse('plan', 'ExitPlanMode', { plan: '## Ship it\n\n1. **build**\n2. deploy' })]),
    toolResult('r6', 'a6', 'plan', 'User has approved your plan.'),
    assistant('a7', 'r6', [say('Done.')], 'end_turn'),
  ]);
  write(join('tools', 'subagents', `agent-${AGENT}.jsonl`), [
    prompt('s1', null, 'You are **alice**. Survey the docs.', { isSidechain: true, agentId: AGENT }),
    assistant('s2', 's1', [say('Surveyed.')], 'end_turn'),
  ]);
  kernel = await startTestKernel(root);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('tool calls in the chat', () => {
  it('shows an Edit as a diff with its removed and added lines, loading the diff view only then', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await toolWidget(page, 'Edit').waitFor();
    expect(scripts.filter((s) => s.includes('DiffView'))).toEqual([]);
    const body = await openedTool(page, 'Edit');
    expect(await body.locator('.file-path').textContent()).toBe('/home/dev/demo/config.toml');
    expect(await body.locator('.diff-removed').textContent()).toBe('- port = 80\n');
    expect(await body.locator('.diff-added').textContent()).toBe('+ port = 8080\n');
    expect(await body.locator('.diff-same').textContent()).toBe('  host = "a"\n');
    expect(scripts.filter((s) => s.includes('DiffView'))).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("says in place that the diff view did not load when its file is gone (a page older than the kernel's build), and the chat goes on", async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    await page.route(/\/assets\/DiffView-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    const edit = await openedTool(page, 'Edit');
    await edit.locator('.diff-loading', { hasText: 'the diff view did not load: reload the page' }).waitFor();
    expect(await edit.locator('.diff').count()).toBe(0);
    const todo = await openedTool(page, 'TodoWrite');
    // the body opens as the click is answered: its list, a moment later
    await todo.locator('.checklist').waitFor();
    expect(await todo.locator('.check').count()).toBe(3);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('renders a TodoWrite as a checklist, each item with its state, under a headline that counts them', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    expect(await toolWidget(page, 'TodoWrite').locator('.tool-key').textContent()).toBe('1 of 3 done · Change the port');
    const body = await openedTool(page, 'TodoWrite');
    const items = await body
      .locator('.checklist .check')
      .evaluateAll((els) =>
        els.map((el) => [
          el.getAttribute('data-status'),
          el.querySelector('.check-mark')?.getAttribute('aria-label'),
          el.querySelector('.check-text')?.textContent,
        ]),
      );
    expect(items).toEqual([
      ['completed', 'done', 'Read the config'],
      ['in_progress', 'in progress', 'Change the port'],
      ['pending', 'to do', 'Restart the server'],
    ]);
    expect(await body.textContent()).not.toContain('activeForm');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a Bash call with its command, the directory it ran in and its exit status, and a Write with its path and size', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    const bash = await openedTool(page, 'Bash');
    expect(await bash.locator('.bash-command code').textContent()).toBe('git status');
    expect(await bash.locator('.bash-description').textContent()).toBe('Show the working tree');
    expect(await bash.locator('.bash-cwd').textContent()).toBe('in /home/dev/demo/web');
    expect(await bash.locator('.bash-exit').textContent()).toBe('exit 128');
    expect(await bash.locator('.tool-result').textContent()).toContain('fatal: not a git repository');
    const write = await openedTool(page, 'Write');
    expect(await write.locator('.file-path').textContent()).toBe('/home/dev/demo/NOTES.md');
    expect(await write.locator('.file-size').textContent()).toBe('writes 12 chars, 2 lines');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a plan as Markdown, headed by its first line', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    expect(await toolWidget(page, 'ExitPlanMode').locator('.tool-key').textContent()).toBe('Ship it');
    const body = await openedTool(page, 'ExitPlanMode');
    expect(await body.locator('.md h2').textContent()).toBe('Ship it');
    expect(await body.locator('.md ol strong').textContent()).toBe('build');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows a Task's report as Markdown under a link to its subagent's chat, titled without Markdown", async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    const body = await openedTool(page, 'Task');
    expect(await body.locator('.subagent-type').textContent()).toBe('Explore agent');
    expect(await body.locator('.subagent-report .md h2').textContent()).toBe('Findings');
    expect(await body.locator('.subagent-report .md strong').textContent()).toBe('current');
    expect(await body.textContent()).not.toContain('agentId');
    const link = body.locator('.subagent-link a');
    expect(await link.textContent()).toBe('You are alice. Survey the docs.');
    expect(await page.locator('.chat-subagent').textContent()).toBe('You are alice. Survey the docs.');
    await link.click();
    await page.waitForURL(/\/s\/test(:|%3A)agent-a1b2c3d$/);
    expect(await page.locator('.chat-title .host-name').textContent()).toBe('test:You are alice. Survey the docs.');
    await page.locator('text=Surveyed.').waitFor();
    expect(await page.locator('.chat-meta').textContent()).toContain('subagent of move the server to port 8080');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
