import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type * as z from 'zod';
import { jsonOrNull } from '../model/json';
import { readFileIfPresent, writeFileAtomic } from './atomic-file';

// A durable log in the state dir: one JSON record a line, each appended and fsync'd, so a write
// costs its own line rather than the whole file. A line that cannot be read (a crash mid-append,
// a hand edit) is skipped with one log line and the rest kept; `compact` then replaces the file
// atomically with the records that matter.

export interface ReadLog<T> {
  records: T[];
  /** false when a line could not be read, or the last one was cut short: compact before appending */
  clean: boolean;
}

export class AppendLog<T> {
  constructor(private readonly path: string) {}

  /** The records in the file (none when it does not exist). */
  read(schema: z.ZodType<T>, log: (message: string) => void): ReadLog<T> {
    const text = readFileIfPresent(this.path);
    const records: T[] = [];
    if (text === null) return { records, clean: true };
    // a last line cut short has no newline: the next append would be glued to it
    let clean = text === '' || text.endsWith('\n');
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const parsed = schema.safeParse(jsonOrNull(line));
      if (parsed.success) records.push(parsed.data);
      else {
        clean = false;
        log(`${this.path}: line ${i + 1} is not a record Loom wrote; it is left out`);
      }
    });
    return { records, clean };
  }

  append(record: T): void {
    const fd = openSync(this.path, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Replaces the file, atomically, with these records. */
  compact(records: T[]): void {
    writeFileAtomic(
      this.path,
      records.map((r) => `${JSON.stringify(r)}\n`),
    );
  }
}
