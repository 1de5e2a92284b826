import { describe, expect, it } from 'vitest';
import { SentPrompts } from '../../spoke/drive/sent-prompts';
import { CONSECUTIVE_BLOCKS, TerminalDelivery } from '../../spoke/drive/terminal-delivery';
import type { AtomMeta } from '../../spoke/model/types';
import { parseLine } from '../../spoke/transcripts/record';
import { prompt, readerLine } from '../helpers/records';

// The parts of driving that need no process: how a Stop hook's feedback line is read, how sent
// prompts settle, and when the Stop hook blocks.

const readLine = (record: object) => {
  const parsed = parseLine(readerLine(JSON.stringify(record)), 'f.jsonl', { fsid: 'f', role: 'main' });
  if (parsed === null || typeof parsed === 'string' || parsed.kind !== 'graph' || !parsed.atom) throw new Error(`not an atom: ${String(parsed)}`);
  return parsed.atom;
};

describe("a Stop hook's feedback line", () => {
  it("is a person's prompt sent through Loom when it carries Loom's marker, named by its text", () => {
    const atom = readLine(prompt('u1', null, 'Stop hook feedback:\n[loom:0a1b2c3d-aaaa] run the tests again', { isMeta: true }));
    expect(atom.author).toEqual({ kind: 'human', via: 'loom', messageId: '0a1b2c3d-aaaa' });
    expect(atom.promptLine).toBe('run the tests again');
  });

  it('stays a harness note without the marker, or when a person typed the same words', () => {
    expect(readLine(prompt('u2', null, 'Stop hook feedback:\nlint failed', { isMeta: true })).author).toEqual({ kind: 'system' });
    expect(readLine(prompt('u3', null, 'Stop hook feedback:\n[loom:0a1b2c3d-aaaa] hi')).author).toEqual({ kind: 'human' });
    // another hook's output that quotes a marker is not Loom's reason
    expect(readLine(prompt('u4', null, 'Stop hook feedback:\nlint: found "[loom:0a1b2c3d-aaaa] hi" in notes.md', { isMeta: true })).author).toEqual({
      kind: 'system',
    });
  });
});

const atom = (uuid: string, line: string, t: number): AtomMeta => ({ uuid, type: 'user', promptLine: line, t }) as AtomMeta;

describe('sent prompts', () => {
  it('settle on the line with their text, and an earlier one that never landed is dropped, saying why', () => {
    let now = 1000;
    const prompts = new SentPrompts(() => now);
    const first = prompts.add('s', 'first', 'local', 'INPUT');
    now = 2000;
    const second = prompts.add('s', 'second\nwith details', 'local', 'INPUT');
    prompts.landed('s', [atom('a2', 'second', 2100)]);
    expect(prompts.get(second.id)).toMatchObject({ state: 'DELIVERED', atomUuid: 'a2' });
    expect(prompts.get(first.id)).toMatchObject({ state: 'DROPPED', reason: expect.stringMatching(/later prompt/) });
  });

  it('settle a Stop hook delivery only by the line with its marker, never by a line typed with the same words', () => {
    const prompts = new SentPrompts(() => 1000);
    const queued = prompts.add('s', 'fix the build', 'local', 'STOP_HOOK');
    prompts.landed('s', [atom('typed', 'fix the build', 1100)]);
    expect(prompts.get(queued.id)?.state).toBe('QUEUED');
    prompts.landed('s', [{ ...atom('fed', 'fix the build', 1200), author: { kind: 'human', via: 'loom', messageId: queued.id } }]);
    expect(prompts.get(queued.id)).toMatchObject({ state: 'DELIVERED', atomUuid: 'fed' });
  });

  it('settle a prompt sent again after a drop as the new one, not the dropped one', () => {
    let now = 1000;
    const prompts = new SentPrompts(() => now);
    const dropped = prompts.add('s', 'retry me', 'local', 'INPUT');
    prompts.drop('s', () => true, 'Claude Code ended before reading it');
    now = 5000;
    const again = prompts.add('s', 'retry me', 'local', 'INPUT');
    prompts.landed('s', [atom('a', 'retry me', 5100)]);
    expect([prompts.get(dropped.id)?.state, prompts.get(again.id)?.state]).toEqual(['DROPPED', 'DELIVERED']);
  });

  it('are not settled by a line written before they were sent', () => {
    const prompts = new SentPrompts(() => 10_000);
    const sent = prompts.add('s', 'again', 'local', 'INPUT');
    prompts.landed('s', [atom('old', 'again', 1000)]);
    expect(prompts.get(sent.id)?.state).toBe('PENDING');
  });
});

describe("Loom's Stop hook", () => {
  const delivery = (prompts: SentPrompts, away = false) =>
    new TerminalDelivery(prompts, { keyOf: (id) => id, away: () => away, waitMs: 50, delivered: () => {} });

  it('blocks with the next queued prompt, marked with its id, and hands it over', async () => {
    const prompts = new SentPrompts(Date.now);
    const queued = prompts.add('s', 'do this next', 'local', 'STOP_HOOK');
    const reason = await delivery(prompts).stopHookAsks({ session_id: 's' }, new AbortController().signal);
    expect(reason).toBe(`[loom:${queued.id}] do this next`);
    expect(prompts.get(queued.id)?.state).toBe('PENDING');
  });

  it(`lets the session stop after ${CONSECUTIVE_BLOCKS} blocks in a row, as Claude Code's own cap does`, async () => {
    const prompts = new SentPrompts(Date.now);
    const stop = delivery(prompts);
    const signal = new AbortController().signal;
    for (let i = 0; i <= CONSECUTIVE_BLOCKS; i++) prompts.add('s', `p${i}`, 'local', 'STOP_HOOK');
    const reasons = [];
    for (let i = 0; i <= CONSECUTIVE_BLOCKS; i++) reasons.push(await stop.stopHookAsks({ session_id: 's', stop_hook_active: i > 0 }, signal));
    expect(reasons.filter((r) => r !== null)).toHaveLength(CONSECUTIVE_BLOCKS);
    expect(reasons.at(-1)).toBeNull();
    // a new turn (stop_hook_active false) starts the count again
    expect(await stop.stopHookAsks({ session_id: 's' }, signal)).toMatch(/\] p8$/);
  });

  it('gives a prompt to one of two Stop hooks woken at once, never to both', async () => {
    const prompts = new SentPrompts(Date.now);
    const stop = delivery(prompts, true);
    const first = stop.stopHookAsks({ session_id: 's' }, new AbortController().signal);
    const second = stop.stopHookAsks({ session_id: 's' }, new AbortController().signal);
    prompts.add('s', 'only once', 'local', 'STOP_HOOK');
    stop.queued('s');
    expect((await Promise.all([first, second])).filter((r) => r !== null)).toHaveLength(1);
  });

  it('waits for a prompt while away, and gives up after its wait without one', async () => {
    const prompts = new SentPrompts(Date.now);
    const stop = delivery(prompts, true);
    const waiting = stop.stopHookAsks({ session_id: 's' }, new AbortController().signal);
    prompts.add('s', 'while you were away', 'hub:laptop', 'STOP_HOOK');
    stop.queued('s');
    expect(await waiting).toMatch(/\] while you were away$/);
    expect(await stop.stopHookAsks({ session_id: 's' }, new AbortController().signal)).toBeNull();
  });
});
