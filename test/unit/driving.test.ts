import { describe, expect, it } from 'vitest';
import { SentPrompts } from '../../spoke/drive/sent-prompts';
import { CONSECUTIVE_BLOCKS, TerminalDelivery } from '../../spoke/drive/terminal-delivery';
import type { AtomMeta } from '../../spoke/model/types';
import { parseLine } from '../../spoke/transcripts/record';
import { prompt } from '../helpers/records';

// The parts of driving that need no process: how a Stop hook's feedback line is read, how sent
// prompts settle, and when the Stop hook blocks.

const readLine = (record: object) => {
  const parsed = parseLine({ text: JSON.stringify(record), number: 1, offset: 0, length: 1 }, 'f.jsonl', { fsid: 'f', role: 'main' });
  if (parsed === null || typeof parsed === 'string' || parsed.kind !== 'graph' || !parsed.atom) throw new Error(`not an atom: ${String(parsed)}`);
  return parsed.atom;
};

describe("a Stop hook's feedback line", () => {
  it("is a person's prompt sent through Loom when it carries Loom's marker, named by its text", () => {
    const atom = readLine(prompt('u1', null, 'Stop hook feedback:\n[loom:0a1b2c3d-aaaa] run the tests again', { isMeta: true }));
    expect(atom.author).toEqual({ kind: 'human', via: 'loom' });
    expect(atom.promptLine).toBe('run the tests again');
  });

  it('stays a harness note without the marker, or when a person typed the same words', () => {
    expect(readLine(prompt('u2', null, 'Stop hook feedback:\nlint failed', { isMeta: true })).author).toEqual({ kind: 'system' });
    expect(readLine(prompt('u3', null, 'Stop hook feedback:\n[loom:0a1b2c3d-aaaa] hi')).author).toEqual({ kind: 'human' });
  });
});

const atom = (uuid: string, line: string, t: number): AtomMeta => ({ uuid, type: 'user', promptLine: line, t }) as AtomMeta;

describe('sent prompts', () => {
  it('settle on the line with their text, and an earlier one that never landed is dropped, saying why', () => {
    let now = 1000;
    const prompts = new SentPrompts(() => now);
    const first = prompts.add('s', 'first', 'local', 'PENDING');
    now = 2000;
    const second = prompts.add('s', 'second\nwith details', 'local', 'PENDING');
    prompts.landed('s', [atom('a2', 'second', 2100)]);
    expect(prompts.get(second.id)).toMatchObject({ state: 'DELIVERED', atomUuid: 'a2' });
    expect(prompts.get(first.id)).toMatchObject({ state: 'DROPPED', reason: expect.stringMatching(/later prompt/) });
    // it landed after all: the transcript has the last word
    prompts.landed('s', [atom('a1', 'first', 2200)]);
    expect(prompts.get(first.id)).toMatchObject({ state: 'DELIVERED', atomUuid: 'a1' });
  });

  it('are not settled by a line written before they were sent', () => {
    const prompts = new SentPrompts(() => 10_000);
    const sent = prompts.add('s', 'again', 'local', 'PENDING');
    prompts.landed('s', [atom('old', 'again', 1000)]);
    expect(prompts.get(sent.id)?.state).toBe('PENDING');
  });
});

describe("Loom's Stop hook", () => {
  const delivery = (prompts: SentPrompts, away = false) => new TerminalDelivery(prompts, { keyOf: (id) => id, away: () => away, waitMs: 50 });

  it('blocks with the next queued prompt, marked with its id, and hands it over', async () => {
    const prompts = new SentPrompts(Date.now);
    const queued = prompts.add('s', 'do this next', 'local', 'QUEUED');
    const reason = await delivery(prompts).stopHookAsks({ session_id: 's' }, new AbortController().signal);
    expect(reason).toBe(`[loom:${queued.id}] do this next`);
    expect(prompts.get(queued.id)?.state).toBe('PENDING');
  });

  it(`lets the session stop after ${CONSECUTIVE_BLOCKS} blocks in a row, as Claude Code's own cap does`, async () => {
    const prompts = new SentPrompts(Date.now);
    const stop = delivery(prompts);
    const signal = new AbortController().signal;
    for (let i = 0; i <= CONSECUTIVE_BLOCKS; i++) prompts.add('s', `p${i}`, 'local', 'QUEUED');
    const reasons = [];
    for (let i = 0; i <= CONSECUTIVE_BLOCKS; i++) reasons.push(await stop.stopHookAsks({ session_id: 's', stop_hook_active: i > 0 }, signal));
    expect(reasons.filter((r) => r !== null)).toHaveLength(CONSECUTIVE_BLOCKS);
    expect(reasons.at(-1)).toBeNull();
    // a new turn (stop_hook_active false) starts the count again
    expect(await stop.stopHookAsks({ session_id: 's' }, signal)).toMatch(/\] p8$/);
  });

  it('waits for a prompt while away, and gives up after its wait without one', async () => {
    const prompts = new SentPrompts(Date.now);
    const stop = delivery(prompts, true);
    const waiting = stop.stopHookAsks({ session_id: 's' }, new AbortController().signal);
    prompts.add('s', 'while you were away', 'hub:laptop', 'QUEUED');
    stop.queued('s');
    expect(await waiting).toMatch(/\] while you were away$/);
    expect(await stop.stopHookAsks({ session_id: 's' }, new AbortController().signal)).toBeNull();
  });
});
