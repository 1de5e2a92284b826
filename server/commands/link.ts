import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { HostsConfigError, parseLinkedHost, readHostsConfig, saveLinkedHost } from '../../federation/hosts-config';
import { COMMAND_RULE, isRemoteCommand, isRemoteStateDir, STATE_DIR_RULE } from '../../federation/remote-command';
import { defaultHostName, resolveSshTargetAt, SshTargetError } from '../../federation/ssh-target';
import { resolveStateDir } from '../state-dir';
import { askKernel, runningKernel } from './ask-kernel';
import { fail } from './fail';
import { usageOf } from './usage';

// `loom link`, `loom unlink`, `loom hosts`: the running kernel's linked hosts, through its API
// (the kernel owns hosts.json and the connections). The command run on a host and its state dir
// are the exception: no request may set them, so `loom link` writes them into hosts.json itself
// and the kernel reads them from there.

const HOST = 'name target trust status { state reason message since lastSeen rttMs }';

interface HostRow {
  name: string;
  target: string | null;
  trust: string | null;
  status: { state: string; reason: string | null; message: string | null; since: string; lastSeen: string | null; rttMs: number | null } | null;
}

interface RemoteSettings {
  name?: string;
  trust?: string;
  command?: string;
  stateDir?: string;
}

export async function link(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      state: { type: 'string' },
      name: { type: 'string' },
      trust: { type: 'string' },
      command: { type: 'string' },
      'remote-state': { type: 'string' },
      'accept-new': { type: 'boolean' },
      start: { type: 'boolean' },
    },
  });
  const [target] = positionals;
  if (!target || positionals.length > 1) return fail(`usage: ${usageOf('link')}`);
  if (target.startsWith('-'))
    return fail(`the target "${target}" is refused: it starts with "-", which ssh would read as an option; give user@host:port or a ~/.ssh/config alias`);
  const trust = values.trust?.toUpperCase();
  if (trust && !['TRUSTED', 'DIRECTED', 'ISOLATED'].includes(trust)) return fail(`--trust must be trusted, directed or isolated, not "${values.trust}"`);
  const { command, 'remote-state': remoteState } = values;
  if (command !== undefined && !isRemoteCommand(command)) return fail(`--command "${command}" is refused: ${COMMAND_RULE}`);
  if (remoteState !== undefined && !isRemoteStateDir(remoteState)) return fail(`--remote-state "${remoteState}" is refused: ${STATE_DIR_RULE}`);
  const stateDir = resolveStateDir(values.state);
  runningKernel(stateDir); // before anything is written: hosts.json changes only for a link the kernel then makes
  if (command !== undefined || remoteState !== undefined)
    saveRemoteSettings(stateDir, target, { name: values.name, trust: values.trust?.toLowerCase(), command, stateDir: remoteState });
  const { data } = await askKernel<{ linkHost: HostRow }>(
    stateDir,
    `mutation($target: String!, $name: String, $trust: TrustTier, $accept: Boolean, $start: Boolean) {
      linkHost(target: $target, name: $name, trust: $trust, acceptNewHostKey: $accept, startKernel: $start) { ${HOST} } }`,
    { target, name: values.name, trust, accept: values['accept-new'] ?? false, start: values.start ?? false },
  );
  const host = data.linkHost;
  if (host.status?.state === 'UP') {
    process.stdout.write(`linked ${host.name} (${host.target}, ${host.trust?.toLowerCase()}): up, ${host.status.rttMs?.toFixed(1)} ms\n`);
    return;
  }
  // kept in hosts.json either way: the kernel retries what can heal by itself
  fail(`linked ${host.name}, but it is down: ${host.status?.message ?? host.status?.reason}`);
}

/** Writes the target's entry in hosts.json with the command and state dir given here, for the kernel to read. */
function saveRemoteSettings(stateDir: string, target: string, given: RemoteSettings): void {
  try {
    const existing = readHostsConfig(stateDir).find((h) => h.target === target);
    const host = parseLinkedHost({
      name: given.name ?? existing?.name ?? defaultHostName(resolveSshTargetAt(target, homedir())),
      target,
      trust: given.trust ?? existing?.trust,
      command: given.command ?? existing?.command,
      stateDir: given.stateDir ?? existing?.stateDir,
    });
    saveLinkedHost(stateDir, host);
  } catch (err) {
    if (err instanceof HostsConfigError || err instanceof SshTargetError) fail(err.message);
    throw err;
  }
}

export async function unlink(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' } } });
  const [name] = positionals;
  if (!name) return fail('usage: loom unlink <name>');
  const { data } = await askKernel<{ unlinkHost: boolean }>(resolveStateDir(values.state), 'mutation($name: String!) { unlinkHost(name: $name) }', { name });
  if (!data.unlinkHost) return fail(`no linked host "${name}"; see loom hosts`);
  process.stdout.write(`unlinked ${name}\n`);
}

export async function hosts(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' }, json: { type: 'boolean' } } });
  const { data } = await askKernel<{ hosts: HostRow[] }>(resolveStateDir(values.state), `{ hosts { local ${HOST} } }`);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(data.hosts)}\n`);
    return;
  }
  const rows = data.hosts.map((h) => [
    h.name,
    h.target ?? '(this machine)',
    h.trust?.toLowerCase() ?? '-',
    h.status ? `${h.status.state.toLowerCase()} since ${new Date(h.status.since).toLocaleTimeString()}` : 'up',
    h.status?.rttMs != null ? `${h.status.rttMs.toFixed(1)} ms` : '-',
    h.status?.message ?? '',
  ]);
  const table = [['HOST', 'TARGET', 'TRUST', 'STATUS', 'RTT', ''], ...rows];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  for (const row of table)
    process.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
}
