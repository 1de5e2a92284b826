import { describe, expect, it } from 'vitest';
import { promptSays } from '../../web/src/chat/loom-prompt';
import type { ChatAtom } from '../../web/src/chat/types';

// A pending prompt retires when the chat holds its atom (web/src/drive/bubbles.ts). The chat holds
// only a text's first 4,000 characters, so a longer prompt must still be recognised by them.

const atom = (text: string, length: number, via: 'LOOM' | null = null): ChatAtom => ({
  id: 'h:s:u1',
  sequence: 1,
  type: 'USER',
  subtype: null,
  t: '2026-01-01T10:00:00.000Z',
  end: null,
  model: null,
  promptLine: text.split('\n')[0],
  author: { kind: 'HUMAN', peer: null, via },
  content: [{ __typename: 'TextBlock', text, length }],
});

describe('a prompt atom the chat holds', () => {
  it('says a short prompt when its whole text is the one sent', () => {
    expect(promptSays(atom('fix the tests', 13), 'fix the tests\n')).toBe(true);
    expect(promptSays(atom('fix the tests', 13), 'fix the tests, all of them')).toBe(false);
  });

  it('says a long prompt the chat holds only the first characters of, when the one sent begins with them', () => {
    const sent = `${'a long pasted log line\n'.repeat(400)}the end`;
    const held = sent.slice(0, 4000);
    expect(promptSays(atom(held, sent.length), sent)).toBe(true);
    expect(promptSays(atom(held, sent.length), `another ${sent}`)).toBe(false);
  });

  it("takes Loom's Stop hook wrapper off first, whole or cut", () => {
    const sent = 'x'.repeat(5000);
    const wrapped = `Stop hook feedback:\n[loom:abcdef12] ${sent}`;
    expect(promptSays(atom(wrapped.slice(0, 4000), wrapped.length, 'LOOM'), sent)).toBe(true);
    expect(promptSays(atom('Stop hook feedback:\n[loom:abcdef12] short', 41, 'LOOM'), 'short')).toBe(true);
  });
});
