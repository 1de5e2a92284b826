import { describe, expect, it } from 'vitest';
import { withoutAnsi } from '../../web/src/lib/ansi';

describe('withoutAnsi', () => {
  it('drops the styles /compact dims its output with', () => {
    expect(withoutAnsi('\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m')).toBe('Compacted (ctrl+o to see full summary)');
  });

  it('drops colours with parameters, cursor moves and a terminal link, keeping the link text', () => {
    expect(withoutAnsi('\u001b[1;38;5;208mwarn\u001b[0m \u001b[2K\u001b]8;;https://example.com\u0007docs\u001b]8;;\u001b\\')).toBe('warn docs');
  });

  it('leaves brackets that are not escapes alone', () => {
    expect(withoutAnsi('PreCompact [bd prime] [2m')).toBe('PreCompact [bd prime] [2m');
  });
});
