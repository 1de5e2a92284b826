import { countChars } from '../characters';
import { TextPieces } from '../TextPieces';
import { sizeOf } from '../tool-summary';
import { Folded } from './Folded';

/**
 * A file written whole: where, how big, and its text once asked for (it can be long). When the
 * chat holds only the file's first characters (`cut`), its size says "at least".
 */
export function FileWrite({ path, content, cut }: { path: string; content: string; cut: boolean }) {
  const lines = content === '' ? 0 : content.split('\n').length;
  const atLeast = cut ? 'at least ' : '';
  return (
    <div className="file-write">
      <p className="file-path">{path}</p>
      <p className="file-size">
        writes {atLeast}
        {sizeOf(countChars(content))}, {atLeast}
        {lines.toLocaleString()} {lines === 1 ? 'line' : 'lines'}
      </p>
      <Folded label="the file" className="file-content">
        <pre>
          <TextPieces text={content} />
        </pre>
      </Folded>
    </div>
  );
}
