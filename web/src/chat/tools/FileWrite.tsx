import { LongText } from '../LongText';
import { sizeOf } from '../tool-summary';
import { Folded } from './Folded';

/** A file written whole: where, how big, and its text once asked for (it can be long). */
export function FileWrite({ path, content }: { path: string; content: string }) {
  const lines = content === '' ? 0 : content.split('\n').length;
  return (
    <div className="file-write">
      <p className="file-path">{path}</p>
      <p className="file-size">
        writes {sizeOf(content)}, {lines.toLocaleString()} {lines === 1 ? 'line' : 'lines'}
      </p>
      <Folded label="the file" className="file-content">
        <LongText text={content} />
      </Folded>
    </div>
  );
}
