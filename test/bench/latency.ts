import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKernelProcess } from './kernel-process';

// Append → subscriber latency: a kernel in its own process (as `loom up` runs it) follows one
// transcript; this process appends a line at a time and times its arrival over graphql-ws.

export async function measureLatency(appends: number, gapMs: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-latency-'));
  const file = join(dir, 'projects', '-bench', 'live.jsonl');
  mkdirSync(join(dir, 'projects', '-bench'), { recursive: true });
  writeFileSync(file, record('r0', null, 'user'));
  const kernel = await startKernelProcess({ name: 'bench', projects: join(dir, 'projects'), stateDir: join(dir, 'state') });
  try {
    const client = kernel.ws();
    const arrived = new Map<string, number>();
    let notify = () => {};
    const iterator = client.iterate<{ sessionStream: { atoms: { uuid: string }[] } }>({
      query: 'subscription { sessionStream(sessionId: "bench:live", cursor: 0) { atoms { uuid } } }',
    });
    const consume = (async () => {
      for await (const r of iterator) {
        const now = performance.now();
        for (const a of r.data!.sessionStream.atoms) arrived.set(a.uuid, now);
        notify();
      }
    })();
    await waitFor(
      () => arrived.has('r0'),
      (f) => (notify = f),
    );
    const latencies: number[] = [];
    let parent = 'r0';
    for (let i = 1; i <= appends; i++) {
      const uuid = `r${i}`;
      const line = record(uuid, parent, i % 2 ? 'assistant' : 'user');
      const sent = performance.now();
      appendFileSync(file, line);
      await waitFor(
        () => arrived.has(uuid),
        (f) => (notify = f),
      );
      latencies.push(arrived.get(uuid)! - sent);
      parent = uuid;
      await new Promise((r) => setTimeout(r, gapMs));
    }
    await iterator.return?.();
    await consume;
    return latencies;
  } finally {
    await kernel.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function waitFor(done: () => boolean, setNotify: (f: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('an appended line never arrived')), 10_000);
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    };
    setNotify(check);
    check();
  });
}

function record(uuid: string, parent: string | null, type: 'user' | 'assistant'): string {
  const message =
    type === 'user'
      ? { role: 'user', content: `prompt ${uuid}` }
      : { id: `msg_${uuid}`, role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: `reply ${uuid}` }], stop_reason: 'end_turn' };
  return `${JSON.stringify({ parentUuid: parent, isSidechain: false, type, uuid, sessionId: 'live', cwd: '/bench', timestamp: new Date().toISOString(), message })}\n`;
}
