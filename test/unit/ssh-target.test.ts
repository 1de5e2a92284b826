import { describe, expect, it } from 'vitest';
import { resolveSshTarget, SshTargetError } from '../../federation/ssh-target';

const home = '/home/me';
const localUser = 'me';
const defaultIdentities = ['/home/me/.ssh/id_ed25519', '/home/me/.ssh/id_ecdsa', '/home/me/.ssh/id_rsa'];

const configText = `
# first value wins, as in ssh(1)
Host gpu-box gpu
  HostName 10.0.0.5
  User alice
  Port 2222
  IdentityFile ~/.ssh/id_gpu
  IdentityFile %d/keys/%r@%h_%u

Host bastion
  HostName bastion.example.org
  User jump
  Port 2200
  ProxyJump none

Host *.lab
  HostName %h.example.org
  User labber
  ProxyJump bastion

Host chain
  ProxyJump ops@hop1:2022,hop2

Host loop-a
  ProxyJump loop-b
Host loop-b
  ProxyJump loop-a

Host bad-port
  Port 70000

Host *
  IdentityFile ~/.ssh/id_shared
  Port 22
`;

function resolve(target: string, text: string | null = configText) {
  return resolveSshTarget(target, { configText: text, home, localUser });
}

describe('resolveSshTarget without a config', () => {
  it.each([
    ['box', { hostName: 'box', user: 'me', port: 22 }],
    ['alice@box', { hostName: 'box', user: 'alice', port: 22 }],
    ['box:2222', { hostName: 'box', user: 'me', port: 2222 }],
    ['alice@10.0.0.5:2222', { hostName: '10.0.0.5', user: 'alice', port: 2222 }],
    ['[::1]:2222', { hostName: '::1', user: 'me', port: 2222 }],
    ['alice@[fe80::1%eth0]', { hostName: 'fe80::1%eth0', user: 'alice', port: 22 }],
    ['::1', { hostName: '::1', user: 'me', port: 22 }],
    ['ssh://alice@box:2222', { hostName: 'box', user: 'alice', port: 2222 }],
    ['ssh://box/', { hostName: 'box', user: 'me', port: 22 }],
  ])('reads %s', (target, expected) => {
    expect(resolve(target, null)).toEqual({ target, ...expected, identityFiles: defaultIdentities, proxyJump: null });
  });
});

describe('resolveSshTarget with ~/.ssh/config', () => {
  it('applies an alias: HostName, User, Port, IdentityFiles with tokens, plus the Host * defaults', () => {
    expect(resolve('gpu-box')).toEqual({
      target: 'gpu-box',
      hostName: '10.0.0.5',
      user: 'alice',
      port: 2222,
      identityFiles: ['/home/me/.ssh/id_gpu', '/home/me/keys/alice@10.0.0.5_me', '/home/me/.ssh/id_shared'],
      proxyJump: null,
    });
    expect(resolve('GPU')).toMatchObject({ target: 'GPU', hostName: '10.0.0.5' });
  });

  it('lets a user and port in the target win over the config', () => {
    expect(resolve('bob@gpu-box:2022')).toMatchObject({
      hostName: '10.0.0.5',
      user: 'bob',
      port: 2022,
      identityFiles: ['/home/me/.ssh/id_gpu', '/home/me/keys/bob@10.0.0.5_me', '/home/me/.ssh/id_shared'],
    });
  });

  it('matches wildcard hosts and resolves their ProxyJump alias with its own config', () => {
    expect(resolve('node1.lab')).toEqual({
      target: 'node1.lab',
      hostName: 'node1.lab.example.org',
      user: 'labber',
      port: 22,
      identityFiles: ['/home/me/.ssh/id_shared'],
      proxyJump: {
        target: 'bastion',
        hostName: 'bastion.example.org',
        user: 'jump',
        port: 2200,
        identityFiles: ['/home/me/.ssh/id_shared'],
        proxyJump: null,
      },
    });
  });

  it('keeps the first hop of a ProxyJump list, in user@host:port form', () => {
    expect(resolve('chain').proxyJump).toEqual({
      target: 'ops@hop1:2022',
      hostName: 'hop1',
      user: 'ops',
      port: 2022,
      identityFiles: ['/home/me/.ssh/id_shared'],
      proxyJump: null,
    });
  });

  it('falls back to the local user, port 22 and the default identities for a host the config does not name', () => {
    expect(resolve('plain', '# nothing here\n')).toEqual({
      target: 'plain',
      hostName: 'plain',
      user: 'me',
      port: 22,
      identityFiles: defaultIdentities,
      proxyJump: null,
    });
  });

  it('refuses a ProxyJump loop and a bad Port in the config, saying where', () => {
    expect(() => resolve('loop-a')).toThrow(/ProxyJump loop: loop-a → loop-b → loop-a/);
    expect(() => resolve('bad-port')).toThrow(/Port "70000" for "bad-port"/);
  });
});

describe('resolveSshTarget refuses bad input', () => {
  it.each([
    ['', /is empty/],
    ['gpu box', /whitespace/],
    ['-oProxyCommand=evil', /starts with "-"/],
    ['box:0', /port "0" is not a whole number from 1 to 65535/],
    ['box:65536', /port "65536"/],
    ['box:ssh', /port "ssh"/],
    ['box:', /port ""/],
    ['@box', /user before "@" is empty/],
    ['me@', /host is empty/],
    ['me@-box', /host "-box"/],
    ['[::1', /"\[" must close with "\]"/],
    ['ssh://box/path', /cannot have a path/],
    ['box;rm', /host "box;rm"/],
  ])('refuses %j', (target, problem) => {
    const attempt = () => resolve(target);
    expect(attempt).toThrow(SshTargetError);
    expect(attempt).toThrow(problem);
    expect(attempt).toThrow(/Expected host, user@host, host:port/);
  });
});
