import { parseArgs } from 'node:util';
import { resolveStateDir } from '../state-dir';
import { askKernel } from './ask-kernel';
import { fail } from './fail';

// `loom link`, `loom unlink`, `loom hosts`: the running kernel's linked hosts, through its API
// (the kernel owns hosts.json and the connections).

const HOST = 'name target trust status { state reason message since lastSeen rttMs }';

interface HostRow {
  name: string;
  target: string | null;
  trust: string | null;
  status: { state: string; reason: string | null; message: string | null; since: string; lastSeen: string | null; rttMs: number | null } | null;
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
  if (!target || positionals.length > 1) return fail('usage: loom link <ssh-target> [--name ALIAS] [--trust trusted|directed|isolated] [--command CMD] [--remote-state DIR] [--accept-new] [--start]');
  const trust = values.trust?.toUpperCase();
  if (trust && !['TRUSTED', 'DIRECTED', 'ISOLATED'].includes(trust)) return fail(`--trust must be trusted, directed or isolated, not "${values.trust}"`);
  const { data } = await askKernel<{ linkHost: HostRow }>(
    resolveStateDir(values.state),
    `mutation($target: String!, $name: String, $trust: TrustTier, $command: String, $stateDir: String, $accept: Boolean, $start: Boolean) {
      linkHost(target: $target, name: $name, trust: $trust, command: $command, stateDir: $stateDir, acceptNewHostKey: $accept, startKernel: $start) { ${HOST} } }`,
    { target, name: values.name, trust, command: values.command, stateDir: values['remote-state'], accept: values['accept-new'] ?? false, start: values.start ?? false },
  );
  const host = data.linkHost;
  if (host.status?.state === 'UP') {
    process.stdout.write(`linked ${host.name} (${host.target}, ${host.trust?.toLowerCase()}): up, ${host.status.rttMs?.toFixed(1)} ms\n`);
    return;
  }
  // kept in hosts.json either way: the kernel retries what can heal by itself
  fail(`linked ${host.name}, but it is down: ${host.status?.message ?? host.status?.reason}`);
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
  for (const row of table) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()}\n`);
}
