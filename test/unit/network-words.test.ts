import { describe, expect, it } from 'vitest';
import { linkFailed, networkButton, stateLine, summary } from '../../web/src/network/describe';
import type { Host } from '../../web/src/network/hosts';

// The network button's and rows' words: a kernel the page lost comes before any host, and a link
// that never connected reads as failed, apart from a host that went down.

const T = '2026-11-30T20:39:55.410Z';
const local: Host = { name: 'laptop', local: true, target: null, trust: null, status: null };
const linked = (name: string, status: NonNullable<Host['status']>): Host => ({ name, local: false, target: `me@${name}`, trust: 'DIRECTED', status });
const up = linked('gpu', { state: 'UP', reason: null, message: null, since: T, lastSeen: T, rttMs: 2.14 });
const down = linked('train', { state: 'DOWN', reason: 'UNREACHABLE', message: 'lost', since: T, lastSeen: T, rttMs: 2 });
const failed = linked('ghost', { state: 'DOWN', reason: 'AUTH_FAILED', message: 'refused', since: T, lastSeen: null, rttMs: null });

describe('the network words', () => {
  it('tell a link that never connected from a host that went down', () => {
    expect([up, down, failed].map(linkFailed)).toEqual([false, false, true]);
    expect([local, up, down, failed].map(stateLine)).toEqual(['up', 'up · 2.1 ms', 'down · unreachable', 'link failed · authentication failed']);
    expect(summary([local, up, down, failed])).toBe('4 hosts · 1 down · 1 failed');
  });

  it('put the kernel the page lost before every host, and the hosts back once it answers', () => {
    expect(networkButton('reconnecting', [local, up], true, null)).toEqual({ tone: 'down', label: 'kernel unreachable: reconnecting…' });
    expect(networkButton('stale', [local, up], true, null)).toEqual({ tone: 'up', label: '2 hosts' });
    expect(networkButton('live', [local, up, failed], true, null)).toEqual({ tone: 'down', label: '3 hosts · 1 failed' });
  });
});
