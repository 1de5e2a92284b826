import { countChars } from '../characters';
import type { HeldText } from '../held-text';
import { LongText } from '../LongText';
import { sizeOf } from '../tool-summary';
import { Folded } from './Folded';

/**
 * A file written whole: where, how big, and its text once asked for (it can be long). The chat
 * may hold only the file's first characters: its size then says "at least", and "show all" reads the rest.
 */
export function FileWrite({ path, content }: { path: string; content: HeldText }) {
  const { text } = content;
  const lines = text === '' ? 0 : text.split('\n').length;
  const atLeast = content.rest ? 'at least ' : '';
  return (
    <div className="file-write">
      <p className="file-path">{path}</p>
      <p className="file-size">
        writes {atLeast}
        {sizeOf(countChars(text))}, {atLeast}
        {lines.toLocaleString()} {lines === 1 ? 'line' : 'lines'}
      </p>
      <Folded label="the file" className="file-content">
        <LongText held={content} />
      </Folded>
    </div>
  );
}
