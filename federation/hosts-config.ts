import { join } from 'node:path';
import * as z from 'zod';
import type { TrustTier } from '../spoke/model/types';
import { readFileIfPresent, writeFileAtomic } from '../spoke/store/atomic-file';
import { COMMAND_RULE, isRemoteCommand, isRemoteStateDir, STATE_DIR_RULE } from './remote-command';

// The hosts a hub links, kept in `<state>/hosts.json`. People edit this file by hand too, so a
// bad one is refused with the field and the reason, never moved aside or rewritten.

export const TRUST_TIERS = ['trusted', 'directed', 'isolated'] as const satisfies readonly TrustTier[];

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export const LinkedHost = z.object({
  /** the alias ids carry for this host (`gpu-box:…`) */
  name: z.string().regex(HOST_NAME, 'letters, digits, ".", "_" and "-", at most 63, starting with a letter or digit'),
  /** what `ssh` would be given: user@host:port or a ~/.ssh/config alias */
  target: z
    .string()
    .min(1)
    .refine((t) => !t.startsWith('-'), 'a target does not start with "-" (ssh would read it as an option)'),
  trust: z.enum(TRUST_TIERS).default('directed'),
  /** how to run loom on the remote (when it is not `loom` on the PATH of a non-interactive ssh) */
  command: z.string().refine(isRemoteCommand, COMMAND_RULE).default('loom'),
  /** the remote kernel's state dir, when it is not the default there */
  stateDir: z.string().refine(isRemoteStateDir, STATE_DIR_RULE).optional(),
});
export type LinkedHost = z.infer<typeof LinkedHost>;

const HostsFile = z.object({ hosts: z.array(LinkedHost) }).superRefine((file, ctx) => {
  const seen = new Set<string>();
  file.hosts.forEach((h, i) => {
    if (seen.has(h.name)) ctx.addIssue({ code: 'custom', path: ['hosts', i, 'name'], message: `"${h.name}" is linked twice` });
    seen.add(h.name);
  });
});

export class HostsConfigError extends Error {}

export const hostsFilePath = (stateDir: string): string => join(stateDir, 'hosts.json');

/** The linked hosts; none when the file does not exist. Every refusal is one line with the fix. */
export function readHostsConfig(stateDir: string): LinkedHost[] {
  const path = hostsFilePath(stateDir);
  const text = readHostsText(path);
  if (text === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HostsConfigError(`${path} is not valid JSON${whereParsingStopped(text, (err as Error).message)}; fix it or move it aside`);
  }
  const parsed = HostsFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${fieldOf(i.path, json)}: ${i.message}`).join('; ');
    throw new HostsConfigError(`${path} is not a valid hosts file: ${issues}; fix it or move it aside`);
  }
  return parsed.data.hosts;
}

function readHostsText(path: string): string | null {
  try {
    return readFileIfPresent(path);
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    if (code === 'EISDIR') throw new HostsConfigError(`${path} is a directory, not a hosts file; move it aside`);
    throw new HostsConfigError(`cannot read ${path}: ${message}`);
  }
}

/** Where JSON.parse stopped, when it says: a position, or the end of the text. */
function whereParsingStopped(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  if (position) return ` at line ${text.slice(0, Number(position[1])).split('\n').length}`;
  if (message.includes('end of JSON input')) return ` (it ends early, at line ${text.trimEnd().split('\n').length})`;
  return '';
}

/** "hosts.0.command" with the host's name, when it has one, so a person finds the entry. */
function fieldOf(path: PropertyKey[], json: unknown): string {
  if (path.length === 0) return '(top)';
  const field = path.join('.');
  const name = path[0] === 'hosts' && typeof path[1] === 'number' ? (json as { hosts: { name?: unknown }[] }).hosts[path[1]]?.name : undefined;
  return typeof name === 'string' ? `${field} (host "${name}")` : field;
}

export function writeHostsConfig(stateDir: string, hosts: LinkedHost[]): void {
  writeFileAtomic(hostsFilePath(stateDir), `${JSON.stringify({ hosts }, null, 2)}\n`);
}

/** Puts one host in hosts.json, in place of any with its target or its name. */
export function saveLinkedHost(stateDir: string, host: LinkedHost): void {
  writeHostsConfig(stateDir, [...readHostsConfig(stateDir).filter((h) => h.target !== host.target && h.name !== host.name), host]);
}

/** Checks one host as `loom link` or `linkHost` gives it, with defaults filled in. */
export function parseLinkedHost(input: Partial<Record<keyof LinkedHost, string>>): LinkedHost {
  const parsed = LinkedHost.safeParse(input);
  if (!parsed.success) {
    const field = (key: PropertyKey) => key as keyof LinkedHost;
    throw new HostsConfigError(parsed.error.issues.map((i) => `the ${String(i.path[0])} "${input[field(i.path[0])]}" is refused: ${i.message}`).join('; '));
  }
  return parsed.data;
}
