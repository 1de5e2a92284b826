import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { readToken } from '../security/token';
import { readClaim, resolveStateDir } from '../state-dir';
import { askKernel } from './ask-kernel';
import { fail } from './fail';

// `loom watch --blocked [--exec CMD]`: one JSON line per goal that newly needs its person, on any
// host the kernel serves, from its feedChanged subscription. With --exec, CMD (your own command
// line, run by sh) gets each line on stdin: a notifier, a webhook, a phone push. Goals blocked
// when it starts are not announced; after a dropped socket it catches up from the last change.

const BLOCKED_NOW = '{ feed { blocked { id } } }';
const CHANGES = `subscription($since: DateTime) {
  feedChanged(since: $since) {
    sessionId
    goals { id title status block { kind text request { id toolName } } session { name host { name } } }
  }
}`;
const RETRY_MS = 2_000;

interface ChangedGoal {
  id: string;
  title: string;
  status: string;
  block: { kind: string; text: string; request: { id: string; toolName: string } | null } | null;
  session: { name: string; host: { name: string } } | null;
}

export async function watch(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' }, blocked: { type: 'boolean' }, exec: { type: 'string' } } });
  if (!values.blocked) return fail('usage: loom watch --blocked [--exec CMD] [--state DIR]');
  const stateDir = resolveStateDir(values.state);
  const { data } = await askKernel<{ feed: { blocked: { id: string }[] } }>(stateDir, BLOCKED_NOW);
  const blocked = new Set(data.feed.blocked.map((g) => g.id));
  let since: string | null = null;
  for (;;) {
    const claim = readClaim(stateDir);
    if (!claim) {
      process.stderr.write(`loom watch: no kernel runs on ${stateDir} now; waiting for one\n`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 5));
      continue;
    }
    const client = createClient({
      url: new URL('graphql', claim.url.replace(/^http/, 'ws')).toString(),
      webSocketImpl: WebSocket,
      connectionParams: { token: readToken(stateDir) },
      retryAttempts: 0,
      on: { connected: () => process.stderr.write(`loom watch: following ${claim.url} for goals that need you\n`) },
    });
    try {
      for await (const frame of client.iterate<{ feedChanged: { sessionId: string; goals: ChangedGoal[] } }>({ query: CHANGES, variables: { since } })) {
        if (!frame.data) continue;
        since = new Date(Date.now() - 1_000).toISOString();
        for (const goal of frame.data.feedChanged.goals) {
          const isBlocked = goal.status === 'BLOCKED';
          if (isBlocked && !blocked.has(goal.id)) announce(goal, frame.data.feedChanged.sessionId, values.exec);
          if (isBlocked) blocked.add(goal.id);
          else blocked.delete(goal.id);
        }
      }
    } catch (err) {
      process.stderr.write(`loom watch: the kernel's stream ended (${errorText(err)}); reconnecting\n`);
    } finally {
      await client.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

function announce(goal: ChangedGoal, sessionId: string, exec: string | undefined): void {
  const line = `${JSON.stringify({
    goalId: goal.id,
    sessionId,
    host: goal.session?.host.name ?? sessionId.split(':')[0],
    session: goal.session?.name ?? null,
    title: goal.title,
    block: goal.block,
    at: new Date().toISOString(),
  })}\n`;
  process.stdout.write(line);
  if (!exec) return;
  // the command is the user's own; what the goal says goes on stdin, never into the command line
  const child = spawn('sh', ['-c', exec], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.on('error', (err) => process.stderr.write(`loom watch: --exec could not run: ${err.message}\n`));
  child.on('exit', (code) => code !== 0 && process.stderr.write(`loom watch: --exec exited ${code}\n`));
  child.stdin.end(line);
}

const errorText = (err: unknown): string =>
  err instanceof Error ? err.message : Array.isArray(err) ? String((err[0] as { message?: string })?.message) : 'closed';
