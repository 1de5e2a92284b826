import { Low } from 'lowdb';
import type { z } from 'zod';
import { moveAside, readFileIfPresent, writeFileAtomic } from './atomic-file';

// A small durable record in the state dir: lowdb over a file written atomically (temp file,
// fsync, rename; lowdb's own file adapter never fsyncs) and validated with zod on read. A file
// that cannot be read is moved aside with a log line, never silently replaced.

class AtomicJsonFile<T> {
  constructor(
    private readonly path: string,
    private readonly schema: z.ZodType<T>,
    private readonly log: (message: string) => void,
  ) {}

  async read(): Promise<T | null> {
    const text = readFileIfPresent(this.path);
    if (text === null) return null;
    let parsed: z.ZodSafeParseResult<T> | null = null;
    try {
      parsed = this.schema.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (parsed?.success) return parsed.data;
    const aside = moveAside(this.path);
    this.log(`${this.path} could not be read; moved it to ${aside} and starting afresh`);
    return null;
  }

  async write(data: T): Promise<void> {
    writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`);
  }
}

export async function openStore<T>(path: string, schema: z.ZodType<T>, empty: T, log: (message: string) => void): Promise<Low<T>> {
  const db = new Low<T>(new AtomicJsonFile(path, schema, log), empty);
  await db.read();
  return db;
}
