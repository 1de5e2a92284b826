import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// `loom hooks` on a real settings.json, and the hook command Claude Code would run.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
const run = promisify(execFile);
let config: string;
let state: string;

beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'loom-claude-'));
  state = mkdtempSync(join(tmpdir(), 'loom-hooks-state-'));
});
afterEach(() => {
  rmSync(config, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

const loom = (...args: string[]) => run(process.execPath, [LOOM, ...args, '--state', state], { env: { ...process.env, CLAUDE_CONFIG_DIR: config } });

// Someone's own settings, formatted their way, with hooks of their own.
const THEIRS = `{
    "model": "opus",
    "hooks": {
        "Stop": [ { "matcher": "", "hooks": [ { "type": "command", "command": "say done" } ] } ],
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit.sh" } ] } ]
    },
    "permissions": { "allow": ["Bash(ls:*)"] }
}
`;

describe('loom hooks', () => {
  it('installs next to existing hooks, once, and uninstalls back to the very same bytes', async () => {
    const settings = join(config, 'settings.json');
    writeFileSync(settings, THEIRS);
    await loom('hooks', 'install');
    const installed = JSON.parse(readFileSync(settings, 'utf8'));
    expect(installed.model).toBe('opus');
    expect(installed.permissions).toEqual({ allow: ['Bash(ls:*)'] });
    // theirs stays first and untouched; Loom's PreToolUse entry is for questions and plans only
    expect(installed.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] });
    expect(installed.hooks.PreToolUse[1]).toMatchObject({ matcher: 'AskUserQuestion|ExitPlanMode', hooks: [{ type: 'command' }] });
    expect(installed.hooks.PreToolUse[1].hooks[0].command).toContain('loom-action-hook.mjs');
    expect(installed.hooks.PermissionRequest[0].hooks[0].command).toContain('loom-action-hook.mjs');
    expect(installed.hooks.Stop[0].hooks[0].command).toBe('say done');
    // Stop runs both: the state line, then the hook that delivers prompts sent through Loom
    expect(installed.hooks.Stop[1].hooks[0].command).toContain('loom-hook.sh');
    expect(installed.hooks.Stop[2].hooks[0].command).toMatch(/loom-action-hook\.mjs' '.*' stop$/);
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Notification', 'PreCompact', 'Stop', 'SubagentStop', 'SessionEnd']) {
      expect(JSON.stringify(installed.hooks[event]), event).toContain('loom-hook.sh');
    }
    expect(readdirSync(config).some((f) => f.startsWith('settings.json.loom-backup-'))).toBe(true);

    const again = await loom('hooks', 'install');
    expect(again.stdout).toMatch(/already/);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual(installed);
    expect((await loom('hooks', 'status')).stdout).toMatch(/installed in .* for SessionStart, .*SessionEnd/);

    await loom('hooks', 'uninstall');
    expect(readFileSync(settings, 'utf8')).toBe(THEIRS);
    expect((await loom('hooks', 'status')).stdout).toMatch(/not installed/);
  });

  it('removes only its own entries when the settings changed after install', async () => {
    const settings = join(config, 'settings.json');
    writeFileSync(settings, THEIRS);
    await loom('hooks', 'install');
    const changed = JSON.parse(readFileSync(settings, 'utf8'));
    changed.theme = 'dark';
    writeFileSync(settings, JSON.stringify(changed));
    await loom('hooks', 'uninstall');
    const after = JSON.parse(readFileSync(settings, 'utf8'));
    expect(after).toEqual({ ...JSON.parse(THEIRS), theme: 'dark' });
  });

  it('brings an older install up to date in place: a moved Node or Loom runs from where it is now, and nothing is added twice', async () => {
    const settings = join(config, 'settings.json');
    const old = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: "sh '/old/loom/server/bin/loom-hook.sh' Stop '/old/state'" }] }],
        // 0.3 named the action hook after the one event it had
        PermissionRequest: [{ hooks: [{ type: 'command', command: "'/old/node' '/old/loom/server/bin/loom-permission-hook.mjs' '/old/state'" }] }],
      },
    };
    writeFileSync(settings, JSON.stringify(old));
    // Stop has its state hook but not the one that delivers prompts: not installed yet, says status
    expect((await loom('hooks', 'status')).stdout).toMatch(/installed in .* for PermissionRequest; missing: .*Stop/);
    await loom('hooks', 'install');
    const installed = JSON.parse(readFileSync(settings, 'utf8'));
    expect(installed.hooks.Stop).toHaveLength(2);
    expect(installed.hooks.Stop[0].hooks[0].command).not.toContain('/old/');
    expect(installed.hooks.Stop[0].hooks[0].command).toContain(join('server', 'bin', 'loom-hook.sh'));
    expect(installed.hooks.PermissionRequest).toHaveLength(1);
    expect(installed.hooks.PermissionRequest[0].hooks[0].command).toContain(process.execPath);
    expect(installed.hooks.PermissionRequest[0].hooks[0].command).toContain('loom-action-hook.mjs');
  });

  it('refuses a settings.json that is not valid JSON and leaves it untouched', async () => {
    const settings = join(config, 'settings.json');
    writeFileSync(settings, '{ "model": "opus", ');
    const result = await loom('hooks', 'install').catch((e) => e);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.json is not valid JSON .*left it untouched/);
    expect(readFileSync(settings, 'utf8')).toBe('{ "model": "opus", ');
  });

  it('installs on a fresh HOME before the first loom up: the state dir is made, private, and settings.json written', async () => {
    const home = mkdtempSync(join(tmpdir(), 'loom-fresh-home-'));
    try {
      const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: '', LOOM_STATE_DIR: '', XDG_STATE_HOME: '' };
      const { stdout } = await run(process.execPath, [LOOM, 'hooks', 'install'], { env });
      expect(stdout).toMatch(/added Loom's hook to .*\.claude\/settings\.json/);
      expect(JSON.stringify(JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).hooks.Stop)).toContain('loom-hook.sh');
      expect(statSync(join(home, '.local', 'state', 'loom')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('writes what Claude Code sends to the state dir when the installed command runs', async () => {
    await loom('hooks', 'install');
    const command = JSON.parse(readFileSync(join(config, 'settings.json'), 'utf8')).hooks.Notification[0].hooks[0].command;
    const input = JSON.stringify({
      session_id: 'abc',
      transcript_path: '/t/abc.jsonl',
      cwd: '/w',
      hook_event_name: 'Notification',
      message: 'Claude needs your permission to use Bash',
      prompt: 'a "secret" \\ prompt',
    });
    const result = spawnSync('sh', ['-c', command], { input, encoding: 'utf8' });
    expect(result.status).toBe(0);
    const line = JSON.parse(readFileSync(join(state, 'states', 'abc.jsonl'), 'utf8'));
    expect(line).toMatchObject({ event: 'Notification', loom_session: null });
    const sent = JSON.parse(line.input);
    expect(sent).toMatchObject({ session_id: 'abc', message: 'Claude needs your permission to use Bash' });
    expect(sent.prompt).toBeNull(); // the prompt stays in the transcript only
    expect(Date.parse(line.t)).not.toBeNaN();
  });

  it('builds the state line itself: what comes on stdin cannot set its event or loom_session', () => {
    const hook = (input: string) =>
      spawnSync(process.execPath, [LOOM, 'hook', 'Notification', '--state', state], { input, encoding: 'utf8', env: { ...process.env, LOOM_SESSION: 'mine' } });
    // keys repeated after the object closes, and text that is no JSON at all between braces
    expect(hook('{"session_id":"dup"},"event":"Stop","loom_session":"theirs","x":{}').status).toBe(0);
    expect(hook('{"session_id":"broken", "event": "Stop" oops}').status).toBe(0);
    for (const id of ['dup', 'broken']) {
      const lines = readFileSync(join(state, 'states', `${id}.jsonl`), 'utf8')
        .trim()
        .split('\n');
      expect(lines, id).toHaveLength(1);
      const line = JSON.parse(lines[0]);
      expect(Object.keys(line).sort(), id).toEqual(['event', 'input', 'loom_session', 't']);
      expect(line, id).toMatchObject({ event: 'Notification', loom_session: 'mine' });
    }
  });

  it('never fails Claude Code: garbage on stdin or an unwritable state dir still exit 0, and say why', () => {
    const garbage = spawnSync(process.execPath, [LOOM, 'hook', 'Stop', '--state', state], { input: 'not json', encoding: 'utf8' });
    expect(garbage.status).toBe(0);
    expect(readFileSync(join(state, 'hook-errors.log'), 'utf8')).toMatch(/Stop: hook input is not a JSON object/);
    const noSession = spawnSync(process.execPath, [LOOM, 'hook', 'Stop', '--state', state], { input: '{"session_id":"../escape"}', encoding: 'utf8' });
    expect(noSession.status).toBe(0);
    expect(readFileSync(join(state, 'hook-errors.log'), 'utf8')).toMatch(/no usable session_id/);
    const nowhere = spawnSync(process.execPath, [LOOM, 'hook', 'Stop', '--state', '/proc/loom-cannot-write-here'], {
      input: '{"session_id":"x"}',
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(nowhere.status).toBe(0);
    expect(existsSync('/proc/loom-cannot-write-here')).toBe(false);
  });
});
