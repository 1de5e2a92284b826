import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DemoHookStates, type StopHook, startLiveAppends, writeDemoTree } from '../../demo/index';
import { HostsConfigError } from '../../federation/hosts-config';
import { defaultProjectsRoot } from '../../spoke/transcripts/paths';
import { VERSION } from '../../spoke/version';
import { startKernel } from '../kernel';
import { DEFAULT_PORT } from '../kernel-defaults';
import { progressBar } from '../progress-bar';
import { parseLimitFlags, type QueryLimits } from '../security/limits';
import { InsecureStateError } from '../security/token';
import { resolveStateDir, StateDirBusyError } from '../state-dir';
import { fail } from './fail';

// `loom up`: index this machine's transcripts (or a generated demo tree) and serve them.

export async function up(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      projects: { type: 'string' },
      port: { type: 'string', default: String(DEFAULT_PORT) },
      state: { type: 'string' },
      name: { type: 'string' },
      demo: { type: 'boolean' },
      'no-demo': { type: 'boolean' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      limit: { type: 'string', multiple: true, default: [] },
      'answer-wait': { type: 'string' },
      claude: { type: 'string' },
      'no-archive': { type: 'boolean' },
      'archive-cap': { type: 'string' },
      'index-workers': { type: 'string' },
    },
  });
  let limits: QueryLimits;
  try {
    limits = parseLimitFlags(values.limit);
  } catch (err) {
    return fail((err as Error).message);
  }
  // within Claude Code's 600 s hook timeout, which the hook itself keeps a few seconds under
  const answerWait = values['answer-wait'] === undefined ? undefined : Number(values['answer-wait']);
  if (answerWait !== undefined && !(Number.isInteger(answerWait) && answerWait >= 0 && answerWait <= 590)) {
    fail(`--answer-wait is the seconds a permission prompt waits for the dashboard (0 to 590), got "${values['answer-wait']}"`);
  }
  const archiveCap = values['archive-cap'] === undefined ? undefined : parseSize(values['archive-cap']);
  if (archiveCap === null) fail(`--archive-cap is a size such as 4G, 500M or none, got "${values['archive-cap']}"`);
  const indexWorkers = values['index-workers'] === undefined ? undefined : Number(values['index-workers']);
  if (indexWorkers !== undefined && !(Number.isInteger(indexWorkers) && indexWorkers >= 0 && indexWorkers <= MAX_INDEX_WORKERS)) {
    fail(`--index-workers is how many threads index the first read besides the kernel's own (0 to ${MAX_INDEX_WORKERS}), got "${values['index-workers']}"`);
  }
  const claude = values.claude ?? process.env.LOOM_CLAUDE;
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got "${values.port}"`);
  let projectsRoot = resolve(values.projects ?? defaultProjectsRoot());
  const stateDir = resolveStateDir(values.state);
  // the demo's sessions ask the kernel's Stop hook at each turn's end, once there is a kernel
  let stopHook: StopHook = async () => null;
  const stopDemo = await maybeDemo(projectsRoot, stateDir, values.demo === true, values['no-demo'] === true, (input) => stopHook(input));
  if (stopDemo) projectsRoot = stopDemo.root;

  const bar = progressBar(process.stderr);
  const log = (m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`);
  // A promise nobody waits for any more (graphql-js stops waiting for a list's other items once
  // one fails) must not take the kernel down: Node would end the process on it.
  process.on('unhandledRejection', (err) => log(`a rejection nobody waited for: ${(err as Error)?.message ?? String(err)}`));
  const kernel = await startKernel({
    projectsRoot,
    stateDir,
    port,
    bindHost: values.host,
    allowHosts: values['allow-host'],
    limits,
    answerWaitMs: answerWait === undefined ? undefined : answerWait * 1000,
    // the sessions Loom drives run the user's own claude: this one, or the first on PATH
    claudePath: claude && resolve(claude),
    hostName: values.name,
    indexWorkers,
    archive: values['no-archive'] ? false : archiveCap === undefined ? undefined : { capBytes: archiveCap === 'none' ? null : archiveCap },
    log,
    onProgress: (p) => bar.update(p),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err instanceof StateDirBusyError || err instanceof InsecureStateError || err instanceof HostsConfigError) return fail(err.message);
    if (err.code === 'EADDRINUSE') return fail(`port ${port} is in use; pick another with --port N (0 picks a free one)`);
    throw err;
  });
  // A stop that fails still ends the process, saying why: the next `loom up` starts from the state dir.
  const shutdown = (): void => {
    Promise.resolve(stopDemo?.stop())
      .then(() => kernel.close())
      .then(
        () => process.exit(0),
        (err: Error) => fail(`stopped without closing cleanly: ${err.message}`),
      );
  };
  stopHook = (input) =>
    kernel.driving.stopHookAsks(input, AbortSignal.timeout(STOP_HOOK_WAIT_MS)).catch((err: Error) => {
      log(`demo: the Stop hook of ${input.session_id} failed (${err.message}); the session stops as usual`);
      return null;
    });
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  // the link at once: the dashboard lists sessions newest first as they are read, with how far it is
  process.stdout.write(
    `Loom ${VERSION} on ${kernel.source.kernel().host.name}, reading ${projectsRoot}\n` +
      `open ${kernel.access.link(kernel.url)}\n(the link signs this browser in once; \`loom url\` prints it again)\n`,
  );
  await kernel.indexed;
  const info = kernel.source.kernel();
  process.stderr.write(`${bar.finish(info.indexing)}\n`);
  process.stdout.write(`${info.sessionCount} sessions from ${projectsRoot}\n`);
}

/** more threads than this only wait on the kernel's thread (docs/performance.md) */
const MAX_INDEX_WORKERS = 16;

/** How long a demo session's Stop hook may wait for a prompt while away: its appends wait with it. */
const STOP_HOOK_WAIT_MS = 2_000;

/** Demo mode: a generated projects tree in a temp dir that keeps growing at a human pace. */
async function maybeDemo(projectsRoot: string, stateDir: string, forced: boolean, refused: boolean, stopHook: StopHook) {
  if (!forced && (refused || hasTranscripts(projectsRoot))) return null;
  if (!forced) process.stderr.write(`no transcripts under ${projectsRoot}: starting demo mode (loom up --no-demo waits for real ones)\n`);
  const dir = mkdtempSync(join(tmpdir(), 'loom-demo-'));
  const root = join(dir, 'projects');
  const tree = await writeDemoTree(root);
  // the hook states a machine with `loom hooks install` would have, so the tabs' live chips work
  const hookStates = new DemoHookStates(stateDir);
  await hookStates.writeTree(tree, Date.now());
  const live = startLiveAppends(tree, { hookStates, stopHook });
  process.stderr.write(`demo: generated sessions in ${root}, some still growing\n`);
  return {
    root,
    async stop() {
      await live.stop();
      await hookStates.remove(tree);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function hasTranscripts(root: string): boolean {
  try {
    return readdirSync(root, { recursive: true }).some((name) => String(name).endsWith('.jsonl'));
  } catch {
    return false;
  }
}

/** `4G`, `500M`, `2048K`, a number of bytes, or `none`; null for anything else. */
function parseSize(text: string): number | 'none' | null {
  if (text === 'none') return 'none';
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)B?$/i.exec(text);
  if (!m) return null;
  const bytes = Number(m[1]) * 1024 ** ' KMGT'.indexOf(m[2].toUpperCase() || ' ');
  return Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : null;
}
