import { join } from 'node:path';
import { z } from 'zod';
import type { TrustTier } from '../spoke/model/types';
import { readFileIfPresent, writeFileAtomic } from '../spoke/store/atomic-file';

// The hosts a hub links, kept in `<state>/hosts.json`. People edit this file by hand too, so a
// bad one is refused with the field and the reason, never moved aside or rewritten.

export const TRUST_TIERS = ['trusted', 'directed', 'isolated'] as const satisfies readonly TrustTier[];

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export const LinkedHost = z.object({
  /** the alias ids carry for this host (`gpu-box:…`) */
  name: z.string().regex(HOST_NAME, 'letters, digits, ".", "_" and "-", at most 63, starting with a letter or digit'),
  /** what `ssh` would be given: user@host:port or a ~/.ssh/config alias */
  target: z.string().min(1),
  trust: z.enum(TRUST_TIERS).default('directed'),
  /** how to run loom on the remote (when it is not `loom` on the PATH of a non-interactive ssh) */
  command: z.string().min(1).default('loom'),
  /** the remote kernel's state dir, when it is not the default there */
  stateDir: z.string().min(1).optional(),
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

/** The linked hosts; none when the file does not exist. */
export function readHostsConfig(stateDir: string): LinkedHost[] {
  const path = hostsFilePath(stateDir);
  const text = readFileIfPresent(path);
  if (text === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HostsConfigError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = HostsFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new HostsConfigError(`${path} is not a valid hosts file: ${issues}`);
  }
  return parsed.data.hosts;
}

export function writeHostsConfig(stateDir: string, hosts: LinkedHost[]): void {
  writeFileAtomic(hostsFilePath(stateDir), `${JSON.stringify({ hosts }, null, 2)}\n`);
}

/** Checks one host as `loom link` or `linkHost` gives it, with defaults filled in. */
export function parseLinkedHost(input: unknown): LinkedHost {
  const parsed = LinkedHost.safeParse(input);
  if (!parsed.success) throw new HostsConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}
