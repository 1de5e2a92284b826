import { describe, expect, it, vi } from 'vitest';
import { LinkFailure } from '../../federation/link-failure';
import { connectSsh } from '../../federation/ssh-connect';

// ssh2 is loaded with the first link, not at the kernel's start: a broken install then shows on
// the host's link, in one sentence that says what to do, instead of stopping every kernel.

vi.mock('ssh2', () => {
  throw new Error("Cannot find package 'ssh2'");
});

describe('linking a host when ssh2 cannot be loaded', () => {
  it('fails with a LinkFailure that says to reinstall', async () => {
    const target = { target: 'box', hostName: '127.0.0.1', user: 'me', port: 22, identityFiles: [], proxyJump: null };
    const failure = await connectSsh({ target, knownHosts: [], agent: undefined, acceptNew: false, keepaliveMs: 1000 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(LinkFailure);
    expect((failure as LinkFailure).message).toMatch(/ssh2 package\) could not be loaded .*npm ci/);
  });
});
