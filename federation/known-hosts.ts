// Host key verification against OpenSSH known_hosts files (sshd(8), "SSH_KNOWN_HOSTS FILE
// FORMAT"). ssh2 accepts any host key and never reads known_hosts, so the hub does it here.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type HostKeyVerdict =
  | { kind: 'known' }
  | { kind: 'unknown' } // no line for this host (or only lines for other key types)
  | { kind: 'changed'; file: string; line: number } // a line for this host and this key type holds another key
  | { kind: 'revoked'; file: string; line: number }; // an @revoked line holds this key (any host)

type Marker = 'revoked' | 'cert-authority' | null;

interface KnownHostsEntry {
  file: string;
  line: number;
  marker: Marker;
  hosts: string;
  keyType: string;
  key: Buffer;
}

const DEFAULT_SSH_PORT = 22;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SHA1_LENGTH = 20;

/** `key` is the raw host key blob as ssh2's hostVerifier receives it (SSH wire format: string keytype, then key data). */
export function checkHostKey(files: { path: string; text: string }[], host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = lookupName(host, port);
  const keyType = keyTypeOf(key);
  let known = false;
  let changed: HostKeyVerdict | null = null;
  for (const entry of entriesOf(files)) {
    // A revoked key is refused whatever host its line names: revocation is about the key.
    if (entry.marker === 'revoked') {
      if (entry.key.equals(key)) return { kind: 'revoked', file: entry.file, line: entry.line };
      continue;
    }
    // CA lines vouch for host certificates, which the hub does not use.
    if (entry.marker === 'cert-authority') continue;
    if (entry.keyType !== keyType || !hostFieldMatches(entry.hosts, name)) continue;
    // Keep reading after a match: a later @revoked line still wins, and a host may list
    // several keys of one type (OpenSSH accepts any of them).
    if (entry.key.equals(key)) known = true;
    else changed ??= { kind: 'changed', file: entry.file, line: entry.line };
  }
  if (known) return { kind: 'known' };
  return changed ?? { kind: 'unknown' };
}

/** OpenSSH's SHA256 fingerprint: "SHA256:" + unpadded base64 of sha256(blob). */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** the key type named inside the blob, e.g. "ssh-ed25519" */
export function keyTypeOf(key: Buffer): string {
  const keyType = readKeyType(key);
  if (keyType === null) throw new Error('not an SSH public key blob: it must start with a length-prefixed key type name');
  return keyType;
}

/** the line `--accept-new` appends: `host` for port 22, `[host]:port` otherwise, then type and base64 key */
export function knownHostsLine(host: string, port: number, key: Buffer): string {
  return `${lookupName(host, port)} ${keyTypeOf(key)} ${key.toString('base64')}`;
}

/** The name OpenSSH looks up and records: hosts are lowercased, and a non-default port is part of the name. */
function lookupName(host: string, port: number): string {
  const lower = host.toLowerCase();
  return port === DEFAULT_SSH_PORT ? lower : `[${lower}]:${port}`;
}

/** The key type string at the start of a wire-format blob, or null when the blob is malformed. */
function readKeyType(blob: Buffer): string | null {
  if (blob.length < 4) return null;
  const length = blob.readUInt32BE(0);
  if (length === 0 || 4 + length > blob.length) return null;
  const keyType = blob.subarray(4, 4 + length).toString('latin1');
  return /^[\x21-\x7e]+$/.test(keyType) ? keyType : null;
}

function* entriesOf(files: { path: string; text: string }[]): Generator<KnownHostsEntry> {
  for (const file of files) {
    const lines = file.text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const parsed = parseLine(lines[index]!);
      if (parsed) yield { file: file.path, line: index + 1, ...parsed };
    }
  }
}

/** One known_hosts line as `[@marker] hosts keytype base64key [comment]`; null for comments, blanks and malformed lines. */
function parseLine(text: string): Omit<KnownHostsEntry, 'file' | 'line'> | null {
  const fields = text.trim().split(/[ \t]+/);
  if (fields[0] === '' || fields[0]!.startsWith('#')) return null;
  let marker: Marker = null;
  if (fields[0]!.startsWith('@')) {
    marker = parseMarker(fields.shift()!);
    if (marker === null) return null; // an unknown marker: OpenSSH skips the line too
  }
  const [hosts, keyType, encodedKey] = fields;
  if (hosts === undefined || keyType === undefined || encodedKey === undefined || !BASE64.test(encodedKey)) return null;
  const key = Buffer.from(encodedKey, 'base64');
  // The type field must agree with the type inside the blob, as OpenSSH requires when it reads a key.
  if (readKeyType(key) !== keyType) return null;
  return { marker, hosts, keyType, key };
}

function parseMarker(field: string): Marker {
  if (field === '@revoked') return 'revoked';
  if (field === '@cert-authority') return 'cert-authority';
  return null;
}

function hostFieldMatches(hosts: string, name: string): boolean {
  return hosts.startsWith('|') ? hashedHostMatches(hosts, name) : patternListMatches(hosts, name);
}

/** `|1|base64salt|base64hash`: the hash is HMAC-SHA1 of the name, keyed with the salt. */
function hashedHostMatches(field: string, name: string): boolean {
  const parts = field.split('|');
  if (parts.length !== 4 || parts[1] !== '1') return false;
  const [salt, hash] = [parts[2]!, parts[3]!];
  if (!BASE64.test(salt) || !BASE64.test(hash)) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length !== SHA1_LENGTH) return false;
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return timingSafeEqual(actual, expected);
}

/** A comma-separated pattern list matches when some pattern matches and no `!negated` pattern does. */
function patternListMatches(list: string, name: string): boolean {
  let matched = false;
  for (const pattern of list.split(',')) {
    if (pattern.startsWith('!')) {
      if (globMatches(pattern.slice(1), name)) return false;
    } else if (globMatches(pattern, name)) {
      matched = true;
    }
  }
  return matched;
}

/** `*` is any run of characters, `?` exactly one; everything else (brackets too) is literal; case does not matter. */
function globMatches(pattern: string, name: string): boolean {
  if (pattern === '') return false;
  const source = pattern
    .toLowerCase()
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's').test(name);
}
