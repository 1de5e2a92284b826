// Turns what the user typed for `loom link <ssh-target>` into connection settings, reading
// ~/.ssh/config the way ssh(1) would, so an alias that works with `ssh` works with Loom.
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseSshConfig, type SSHConfig } from 'ssh-config';

export interface SshTarget {
  /** what the user typed, e.g. "gpu-box" or "me@10.0.0.5:2222" */
  target: string;
  hostName: string;
  user: string;
  port: number;
  /** absolute paths, ~ expanded; the configured IdentityFiles, else OpenSSH's defaults (~/.ssh/id_ed25519, id_ecdsa, id_rsa) */
  identityFiles: string[];
  /** one hop of ProxyJump, resolved the same way (null when none or "none") */
  proxyJump: SshTarget | null;
}

export class SshTargetError extends Error {}

interface ResolveOptions {
  configText: string | null;
  home: string;
  localUser: string;
}

/** The parts of a target the user spelled out; null where the config or a default decides. */
interface TypedTarget {
  user: string | null;
  host: string;
  port: number | null;
}

type HostSettings = Record<string, string | string[]>;

const DEFAULT_SSH_PORT = 22;
const DEFAULT_IDENTITY_FILES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];
const TARGET_FORMS = 'host, user@host, host:port, user@host:port, [ipv6]:port or ssh://user@host:port';
// Conservative character sets: a target ends up in messages and maybe in an ssh command line.
const HOST_CHARS = /^[A-Za-z0-9._:%-]+$/;
const USER_CHARS = /^[A-Za-z0-9._@\\-]+$/;

/** `configText` is the content of ~/.ssh/config (null when there is none); `home` for ~; `localUser` when no User is given. */
export function resolveSshTarget(target: string, options: ResolveOptions): SshTarget {
  const config = options.configText === null ? null : parseConfig(options.configText);
  return resolveTyped(target, parseTarget(target), config, options, []);
}

/** Resolves a target with the ~/.ssh/config of `home`, as this machine's user. */
export function resolveSshTargetAt(target: string, home: string): SshTarget {
  let configText: string | null;
  try {
    configText = readFileSync(join(home, '.ssh', 'config'), 'utf8');
  } catch {
    configText = null;
  }
  return resolveSshTarget(target, { configText, home, localUser: userInfo().username });
}

/** The name a host gets when none is given: the first label of its host name. */
export const defaultHostName = (target: SshTarget): string => target.hostName.split('.')[0];

function resolveTyped(target: string, typed: TypedTarget, config: SSHConfig | null, options: ResolveOptions, via: string[]): SshTarget {
  const settings = config === null ? {} : settingsFor(config, typed);
  const hostName = expandHostName(single(settings.hostname), typed.host);
  const user = typed.user ?? single(settings.user) ?? options.localUser;
  const port = typed.port ?? configuredPort(single(settings.port), typed.host) ?? DEFAULT_SSH_PORT;
  const identityFiles = identityFilesFor(settings.identityfile, { home: options.home, localUser: options.localUser, hostName, user });
  const jump = single(settings.proxyjump);
  const proxyJump = jump === undefined ? null : resolveProxyJump(jump, typed.host, config, options, [...via, typed.host]);
  return { target, hostName, user, port, identityFiles, proxyJump };
}

function parseConfig(text: string): SSHConfig {
  try {
    return parseSshConfig(text);
  } catch (error) {
    throw new SshTargetError(`~/.ssh/config could not be read: ${(error as Error).message}`);
  }
}

/** Settings for one host, first value wins as in ssh(1); keys lowercased since directive names are case-insensitive. */
function settingsFor(config: SSHConfig, typed: TypedTarget): HostSettings {
  // `Match exec` would run shell commands from the config: never from a lookup.
  const computeOptions = { ignoreCase: true, matchExec: false };
  return typed.user === null ? config.compute({ Host: typed.host }, computeOptions) : config.compute({ Host: typed.host, User: typed.user }, computeOptions);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** HostName may name the typed host as %h (e.g. `HostName %h.example.org`). */
function expandHostName(configured: string | undefined, typedHost: string): string {
  if (configured === undefined) return typedHost;
  return configured.replace(/%([%h])/g, (_, token: string) => (token === 'h' ? typedHost : '%'));
}

function configuredPort(value: string | undefined, alias: string): number | null {
  if (value === undefined) return null;
  const port = portNumber(value);
  if (port === null) {
    throw new SshTargetError(`~/.ssh/config sets Port "${value}" for "${alias}": expected a whole number from 1 to 65535`);
  }
  return port;
}

function identityFilesFor(configured: string | string[] | undefined, tokens: { home: string; localUser: string; hostName: string; user: string }): string[] {
  const files = configured === undefined ? [] : ([] as string[]).concat(configured);
  if (files.length === 0) return DEFAULT_IDENTITY_FILES.map((name) => join(tokens.home, '.ssh', name));
  return files.map((file) => absolutePath(expandTokens(expandTilde(file, tokens.home), tokens), tokens.home));
}

function expandTilde(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? home + path.slice(1) : path;
}

/** The ssh_config tokens that are known without a connection; others are left as written. */
function expandTokens(path: string, tokens: { home: string; localUser: string; hostName: string; user: string }): string {
  const values: Record<string, string> = { '%': '%', d: tokens.home, u: tokens.localUser, h: tokens.hostName, r: tokens.user };
  return path.replace(/%(.)/g, (written, token: string) => values[token] ?? written);
}

/** ssh(1) reads a relative IdentityFile from its working directory; for a daemon the home directory stands in. */
function absolutePath(path: string, home: string): string {
  return isAbsolute(path) ? path : resolve(home, path);
}

/** Only the first hop of `ProxyJump a,b` is kept; the hop's own config (and ProxyJump) applies to it. */
function resolveProxyJump(value: string, alias: string, config: SSHConfig | null, options: ResolveOptions, via: string[]): SshTarget | null {
  if (value.toLowerCase() === 'none') return null;
  const hop = value.split(',')[0]!;
  let typed: TypedTarget;
  try {
    typed = parseTarget(hop);
  } catch (error) {
    throw new SshTargetError(`~/.ssh/config sets ProxyJump "${value}" for "${alias}", which is not usable: ${(error as Error).message}`);
  }
  if (via.includes(typed.host)) {
    throw new SshTargetError(`~/.ssh/config makes ProxyJump loop: ${[...via, typed.host].join(' → ')}; set "ProxyJump none" for the jump host`);
  }
  return resolveTyped(hop, typed, config, options, via);
}

function parseTarget(target: string): TypedTarget {
  if (target === '') throw targetError(target, 'it is empty');
  if (/\s/.test(target)) throw targetError(target, 'it contains whitespace');
  if (target.startsWith('-')) throw targetError(target, 'it starts with "-", which ssh would read as an option');
  const uriBody = /^ssh:\/\/(.*?)\/?$/i.exec(target)?.[1];
  const typed = uriBody === undefined ? parseUserHostPort(target, target) : parseUserHostPort(target, decodeUri(target, uriBody));
  // ssh(1) matches Host patterns against the lowercased name.
  return { ...typed, host: typed.host.toLowerCase() };
}

function decodeUri(target: string, body: string): string {
  if (body.includes('/')) throw targetError(target, 'an ssh:// target cannot have a path');
  try {
    return decodeURIComponent(body);
  } catch {
    throw targetError(target, 'it has a malformed %-escape');
  }
}

/** `[user@]host[:port]`, where host may be `[ipv6]`; the last `@` ends the user, as in ssh(1). */
function parseUserHostPort(target: string, text: string): TypedTarget {
  const at = text.lastIndexOf('@');
  const user = at === -1 ? null : text.slice(0, at);
  const { host, port } = splitHostPort(target, text.slice(at + 1));
  if (user !== null && !(USER_CHARS.test(user) && !user.startsWith('-'))) {
    throw targetError(target, user === '' ? 'the user before "@" is empty' : `the user "${user}" has characters a user name cannot have`);
  }
  if (host === '') throw targetError(target, 'the host is empty');
  if (!HOST_CHARS.test(host) || host.startsWith('-')) throw targetError(target, `the host "${host}" has characters a host name cannot have`);
  return { user, host, port };
}

function splitHostPort(target: string, text: string): { host: string; port: number | null } {
  if (text.startsWith('[')) {
    const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
    if (!bracketed) throw targetError(target, 'a "[" must close with "]", optionally followed by ":port"');
    return { host: bracketed[1]!, port: bracketed[2] === undefined ? null : typedPort(target, bracketed[2]) };
  }
  const parts = text.split(':');
  // Several colons without brackets can only be a bare IPv6 address, which has no port.
  if (parts.length !== 2) return { host: text, port: null };
  return { host: parts[0]!, port: typedPort(target, parts[1]!) };
}

function typedPort(target: string, text: string): number {
  const port = portNumber(text);
  if (port === null) throw targetError(target, `the port "${text}" is not a whole number from 1 to 65535`);
  return port;
}

function portNumber(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

function targetError(target: string, problem: string): SshTargetError {
  return new SshTargetError(`"${target}" is not a usable SSH target: ${problem}. Expected ${TARGET_FORMS}.`);
}
