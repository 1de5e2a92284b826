import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, type Stats, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../spoke/store/atomic-file';

// The kernel's token: 256 random bits in `<state>/token`, readable by its owner only. Everything
// but /healthz and /version needs it, loopback included: a browser tab, a DNS-rebinding page or
// another user on the machine all reach 127.0.0.1.

export class InsecureStateError extends Error {}

const tokenPath = (stateDir: string): string => join(stateDir, 'token');

/** Checks the state dir and its token file, creating them when missing; refuses anything loose. */
export function ensureToken(stateDir: string): string {
  checkTokenFile(stateDir);
  return readToken(stateDir);
}

/** The state dir and token file exist, are this user's and are closed to others. */
function checkTokenFile(stateDir: string): void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  checkOwnedAndPrivate(stateDir, lstatSync(stateDir), 'directory', 0o077, 'chmod 700');
  const path = tokenPath(stateDir);
  let stats: Stats | null = null;
  try {
    stats = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (stats) checkOwnedAndPrivate(path, stats, 'file', 0o077, 'chmod 600');
  else createTokenFile(path);
}

/** The token as the file holds it now; refused unless it is one Loom made. */
export function readToken(stateDir: string): string {
  const token = readFileSync(tokenPath(stateDir), 'utf8').trim();
  if (!looksGenerated(token)) {
    throw new InsecureStateError(
      `refusing to start: ${tokenPath(stateDir)} does not hold a token Loom made (43 random base64url characters); run \`loom token --rotate\` for a new one`,
    );
  }
  return token;
}

/**
 * A token newToken made: 43 base64url characters (256 bits). Typed or pasted values are refused
 * however long: a random one has about 31 distinct characters, and fewer than 16 happens by
 * chance less than once in 10^12, while "aaaa…" or "abab…" are guessable.
 */
function looksGenerated(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token) && new Set(token).size >= MIN_DISTINCT;
}
const MIN_DISTINCT = 16;

/** Replaces the token; a running kernel notices and ends every session that used the old one. */
export function rotateToken(stateDir: string): string {
  // the old token may be the very thing being replaced (one Loom did not make): not read here
  checkTokenFile(stateDir);
  writeFileAtomic(tokenPath(stateDir), `${newToken()}\n`);
  return readToken(stateDir);
}

/** The token file's identity, to notice a rotation cheaply. */
export function tokenStamp(stateDir: string): string {
  const s = statSync(tokenPath(stateDir));
  return `${s.ino}:${s.mtimeMs}:${s.size}`;
}

/** What a token is compared by: its SHA-256, so the comparison takes the same time whatever the lengths. */
export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Compares in constant time against a digest from tokenDigest. */
export function matchesDigest(given: string, digest: Buffer): boolean {
  return timingSafeEqual(tokenDigest(given), digest);
}

/** Compares in constant time, whatever the lengths. */
export function tokensEqual(given: string, expected: string): boolean {
  return matchesDigest(given, tokenDigest(expected));
}

const newToken = (): string => randomBytes(32).toString('base64url');

/** A new token in a file that must not exist yet (two starts at once cannot both write one). */
function createTokenFile(path: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${newToken()}\n`);
  } finally {
    closeSync(fd);
  }
}

function checkOwnedAndPrivate(path: string, stats: Stats, kind: 'file' | 'directory', forbidden: number, fix: string): void {
  if (stats.isSymbolicLink()) {
    throw new InsecureStateError(`refusing to start: ${path} is a symbolic link; Loom keeps its token only in a real ${kind} it owns`);
  }
  if (kind === 'file' ? !stats.isFile() : !stats.isDirectory()) {
    throw new InsecureStateError(`refusing to start: ${path} is not a ${kind}`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new InsecureStateError(`refusing to start: ${path} belongs to uid ${stats.uid}, not to you (uid ${uid})`);
  }
  if ((stats.mode & forbidden) !== 0) {
    const mode = (stats.mode & 0o777).toString(8).padStart(3, '0');
    throw new InsecureStateError(`refusing to start: ${path} is open to other users (mode ${mode}); run: ${fix} ${path}`);
  }
}
