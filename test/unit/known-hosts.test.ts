import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHostKey, fingerprint, keyTypeOf, knownHostsLine } from '../../federation/known-hosts';

/** A real key made by ssh-keygen: its .pub path, its `type base64` text and its wire-format blob. */
interface RealKey {
  pub: string;
  typeAndKey: string;
  blob: Buffer;
}

let dir: string;
let hostKey: RealKey; // the key the server presents
let otherKey: RealKey; // another ed25519 key: same type, different key
let ecdsaKey: RealKey; // a key of another type

function generateKey(name: string, type: string): RealKey {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-t', type, '-N', '', '-C', name, '-f', path, '-q']);
  const [keyType, base64] = readFileSync(`${path}.pub`, 'utf8').trim().split(' ');
  return { pub: `${path}.pub`, typeAndKey: `${keyType} ${base64}`, blob: Buffer.from(base64!, 'base64') };
}

/** Writes a known_hosts file and returns it in the shape checkHostKey reads. */
function knownHosts(name: string, lines: string[]): { path: string; text: string } {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, text: readFileSync(path, 'utf8') };
}

/** Asks OpenSSH whether a known_hosts file has an entry for a name. */
function openSshFinds(file: string, name: string): boolean {
  return spawnSync('ssh-keygen', ['-F', name, '-f', file]).status === 0;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-known-hosts-'));
  hostKey = generateKey('host', 'ed25519');
  otherKey = generateKey('other', 'ed25519');
  ecdsaKey = generateKey('ecdsa', 'ecdsa');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkHostKey', () => {
  it('knows a host listed by plain name, whatever its case', () => {
    const file = knownHosts('plain', [`gpu-box,10.0.0.5 ${hostKey.typeAndKey}`]);
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'GPU-Box', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], '10.0.0.5', 22, hostKey.blob)).toEqual({ kind: 'known' });
  });

  it('looks up a non-22 port as [host]:port, and port 22 as the bare host', () => {
    const file = knownHosts('port', [`[127.0.0.1]:2222 ${hostKey.typeAndKey}`]);
    expect(checkHostKey([file], '127.0.0.1', 2222, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], '127.0.0.1', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
    expect(checkHostKey([file], '127.0.0.1', 2200, hostKey.blob)).toEqual({ kind: 'unknown' });
  });

  it('knows hosts hashed by ssh-keygen -H', () => {
    const plain = knownHosts('hashed', [`[127.0.0.1]:2222 ${hostKey.typeAndKey}`, `gpu-box ${hostKey.typeAndKey}`]);
    execFileSync('ssh-keygen', ['-H', '-f', plain.path], { stdio: 'ignore' });
    const text = readFileSync(plain.path, 'utf8');
    expect(text).not.toContain('gpu-box');
    expect(text.split('\n').filter((line) => line.startsWith('|1|'))).toHaveLength(2);
    const file = { path: plain.path, text };
    expect(checkHostKey([file], '127.0.0.1', 2222, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'gpu-box', 2222, hostKey.blob)).toEqual({ kind: 'unknown' });
    expect(checkHostKey([file], 'gpu-box', 22, otherKey.blob)).toEqual({ kind: 'changed', file: plain.path, line: 2 });
  });

  it('calls a host unknown when no line names it, or only lines for other key types do', () => {
    expect(checkHostKey([], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
    const file = knownHosts('unknown', [`other-box ${hostKey.typeAndKey}`, `gpu-box ${ecdsaKey.typeAndKey}`]);
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
  });

  it('reports a changed key with the file and line that hold the old one', () => {
    const file = knownHosts('changed', ['# my hosts', '', `gpu-box ${otherKey.typeAndKey}`]);
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'changed', file: file.path, line: 3 });
  });

  it('accepts any of several keys of one type listed for a host, as OpenSSH does', () => {
    const file = knownHosts('several', [`gpu-box ${otherKey.typeAndKey}`, `gpu-box ${hostKey.typeAndKey}`]);
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'known' });
  });

  it('refuses a revoked key even when the host also lists it as known, and whatever host the @revoked line names', () => {
    const known = knownHosts('known', [`gpu-box ${hostKey.typeAndKey}`]);
    const revoked = knownHosts('revoked', ['# revoked after the leak', `@revoked old-box ${hostKey.typeAndKey}`]);
    expect(checkHostKey([known, revoked], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'revoked', file: revoked.path, line: 2 });
    expect(checkHostKey([known, revoked], 'gpu-box', 22, otherKey.blob)).toEqual({ kind: 'changed', file: known.path, line: 1 });
  });

  it('matches * and ? wildcards, and a !negated pattern excludes a host', () => {
    const file = knownHosts('patterns', [`*.lab,!secret.lab ${hostKey.typeAndKey}`, `gpu-? ${hostKey.typeAndKey}`, `[*.lab]:2222 ${otherKey.typeAndKey}`]);
    expect(checkHostKey([file], 'a.lab', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'secret.lab', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
    expect(checkHostKey([file], 'gpu-1', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'gpu-10', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
    expect(checkHostKey([file], 'b.lab', 2222, otherKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'xlab', 22, hostKey.blob)).toEqual({ kind: 'unknown' });
  });

  it('skips malformed lines, unknown markers and @cert-authority lines without throwing', () => {
    const [, base64] = hostKey.typeAndKey.split(' ');
    const file = knownHosts('malformed', [
      'gpu-box',
      'gpu-box ssh-ed25519',
      'gpu-box ssh-ed25519 !!not-base64!!',
      `gpu-box ssh-rsa ${base64}`, // type field disagrees with the blob
      'gpu-box ssh-ed25519 AAAA', // a blob too short to hold a type
      `|1|bad|hash ${otherKey.typeAndKey}`,
      `@unknown gpu-box ${otherKey.typeAndKey}`,
      `@cert-authority gpu-box ${otherKey.typeAndKey}`,
      `   gpu-box\t${hostKey.typeAndKey} trailing comment\r`,
    ]);
    expect(checkHostKey([file], 'gpu-box', 22, hostKey.blob)).toEqual({ kind: 'known' });
    expect(checkHostKey([file], 'gpu-box', 22, otherKey.blob)).toEqual({ kind: 'changed', file: file.path, line: 9 });
  });
});

describe('key helpers', () => {
  it('computes the same SHA256 fingerprint as ssh-keygen -l', () => {
    for (const key of [hostKey, ecdsaKey]) {
      const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', key.pub], { encoding: 'utf8' });
      expect(printed.split(' ')[1]).toBe(fingerprint(key.blob));
    }
  });

  it('reads the key type inside the blob, and refuses a blob that is not a key', () => {
    expect(keyTypeOf(hostKey.blob)).toBe('ssh-ed25519');
    expect(keyTypeOf(ecdsaKey.blob)).toBe('ecdsa-sha2-nistp256');
    expect(() => keyTypeOf(Buffer.from([0, 0, 0, 9, 1]))).toThrow(/not an SSH public key blob/);
  });

  it('writes known_hosts lines that OpenSSH finds, and that checkHostKey then knows', () => {
    const lines = [knownHostsLine('127.0.0.1', 2222, hostKey.blob), knownHostsLine('GPU-Box', 22, hostKey.blob)];
    expect(lines).toEqual([`[127.0.0.1]:2222 ${hostKey.typeAndKey}`, `gpu-box ${hostKey.typeAndKey}`]);
    const file = knownHosts('accepted', lines);
    expect(openSshFinds(file.path, '[127.0.0.1]:2222')).toBe(true);
    expect(openSshFinds(file.path, 'gpu-box')).toBe(true);
    expect(openSshFinds(file.path, 'elsewhere')).toBe(false);
    expect(checkHostKey([file], '127.0.0.1', 2222, hostKey.blob)).toEqual({ kind: 'known' });
  });
});
