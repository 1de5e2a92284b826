// Loom runs compiled: its TypeScript sources and the plain-JavaScript packages they use, bundled by
// esbuild into a few modules. Resolving and loading a thousand small modules, and compiling each
// of Loom's as it loaded (tsx), took most of the kernel's start. The bundle is rebuilt whenever a
// source it was made from changed, so an edited checkout runs what it holds; a checkout that cannot
// be written to runs from its sources through tsx.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ENTRY = join(ROOT, 'server', 'cli.ts');
/** the modules worker threads run (spoke/workers/start-worker.ts): compiled too, so that a worker starts without tsx */
const WORKERS = ['spoke/transcripts/index-worker.ts', 'spoke/search/writer-worker.ts'];
const BUILDS = join(ROOT, 'dist', 'loom');
/** what npm installed: rewritten by every install */
const INSTALLED = join(ROOT, 'node_modules', '.package-lock.json');
/** which build is current, and the size and time of each source it was made from */
const CURRENT = join(BUILDS, 'current.json');
/** an older build is removed once it is this old and no process runs from it */
const STALE_BUILD_MS = 60 * 60 * 1000;
/**
 * Each process running a build names itself in this folder of it (an empty file named by its pid)
 * while it runs: a kernel loads chunks and worker modules from its build long after it started.
 */
const RUNNING = 'running';

/** The URL of the CLI's compiled entry, built first if missing or older than a source; null when it cannot be built here. */
export async function compiledCli() {
  const current = readCurrent();
  if (typeof current?.build === 'string' && Array.isArray(current.inputs)) {
    // named first, then checked: a rebuild that removed it in between leaves no entry to find
    const leave = runFrom(current.build);
    if ([[entryOf(current.build)], ...current.inputs].every(unchanged)) return pathToFileURL(entryOf(current.build)).href;
    leave();
  }
  try {
    const fresh = await build();
    runFrom(fresh);
    return pathToFileURL(entryOf(fresh)).href;
  } catch (err) {
    process.stderr.write(`loom: could not compile into ${BUILDS} (${err.message.split('\n')[0]}); running from the sources, which starts slower\n`);
    return null;
  }
}

const entryOf = (build) => join(BUILDS, build, 'cli.js');

/** Names this process in the build's RUNNING folder until it exits; returns what takes the name back sooner. */
function runFrom(build) {
  const marker = join(BUILDS, build, RUNNING, String(process.pid));
  const remove = () => rmSync(marker, { force: true });
  try {
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, '');
    process.once('exit', remove);
  } catch {
    // a build that cannot be marked still runs: only its removal by a later rebuild is at stake
  }
  return () => {
    process.off('exit', remove);
    remove();
  };
}

function readCurrent() {
  try {
    return JSON.parse(readFileSync(CURRENT, 'utf8'));
  } catch {
    return null;
  }
}

/** [absolute path, size, mtime]: unchanged when the file is still there with the size and time given (a moved checkout rebuilds) */
function unchanged([path, size, mtimeMs]) {
  try {
    const stat = statSync(path);
    return (size === undefined || stat.size === size) && (mtimeMs === undefined || stat.mtimeMs === mtimeMs);
  } catch {
    return false;
  }
}

/** Builds into a folder of its own (commands starting at the same time each build their own), then names it current. */
async function build() {
  const { build: esbuild } = await import('esbuild');
  const name = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const outdir = join(BUILDS, name);
  mkdirSync(BUILDS, { recursive: true });
  const result = await esbuild(bundleOptions({ cli: ENTRY }, outdir));
  // the packages bundled change only when npm installs (which rewrites its lock), the build's settings only with this file
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/') && !input.startsWith('<define:'));
  const inputs = [...sources.map((input) => join(ROOT, input)), INSTALLED, import.meta.filename].map((path) => {
    const stat = statSync(path);
    return [path, stat.size, stat.mtimeMs];
  });
  const temp = `${CURRENT}.${name}`;
  writeFileSync(temp, JSON.stringify({ build: name, inputs }));
  renameSync(temp, CURRENT);
  removeOldBuilds(name);
  return name;
}

/**
 * esbuild's options for a bundle of `entries` (name → source file) and Loom's worker modules into
 * `outdir`: the CLI's, and the bench's children (test/bench/child.ts), which run as `loom` does.
 */
export function bundleOptions(entries, outdir) {
  const workers = WORKERS.map((source) => ({ name: source.replace(/\.ts$/, ''), source: join(ROOT, source) }));
  return {
    entryPoints: { ...entries, ...Object.fromEntries(workers.map((w) => [w.name, w.source])) },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // native code (better-sqlite3, ssh2's optional crypto), a package that finds its own files (the
    // Agent SDK's cli.js), one loaded only when asked (GraphiQL's page), and the compilers
    external: ['better-sqlite3', 'ssh2', '@anthropic-ai/claude-agent-sdk', '@graphql-yoga/render-graphiql', 'tsx', 'esbuild'],
    outdir,
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: 'silent',
    // without white space and comments (names kept, for errors that name where they arose): the
    // kernel's start compiled and decoded 2.4 MB of source, and a non-ASCII character in a kept
    // comment made Node decode a whole chunk the slow way (15 ms of the start; performance.md)
    minifyWhitespace: true,
    minifySyntax: true,
    // the packages bundled that are CommonJS require Node's own modules
    banner: { js: "import { createRequire as loomRequire } from 'node:module'; const require = loomRequire(import.meta.url);" },
    plugins: [sourceLocations, graphqlModules],
    define: { 'import.meta.loomWorkers': JSON.stringify(Object.fromEntries(workers.map((w) => [w.source, join(outdir, `${w.name}.js`)]))) },
  };
}

/**
 * Each module keeps its own location: `import.meta.url` and `import.meta.dirname` name its source
 * file's folder, not the bundle's, so paths beside a source (the hook scripts, package.json, the
 * web client, worker modules) resolve as they do from the sources.
 */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * graphql as its ES modules (each `.js` of it has a `.mjs` twin): bundled as CommonJS, every
 * module importing it copied its 400-odd exports at start (about 20 ms), and none of it could be
 * left out. Its subpaths go the same way, so that the bundle holds one graphql, not one of each
 * kind (two would each have their own classes, which graphql refuses to mix).
 */
const graphqlModules = {
  name: 'graphql-modules',
  setup(build) {
    build.onResolve({ filter: /^graphql(\/|$)/ }, async (args) => {
      if (args.pluginData === 'graphql-modules') return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'graphql-modules' });
      if (found.errors.length > 0 || !found.path.endsWith('.js')) return found;
      const twin = found.path.replace(/\.js$/, '.mjs');
      return existsSync(twin) ? { path: twin, sideEffects: found.sideEffects } : found;
    });
  },
};

function removeOldBuilds(keep) {
  for (const entry of readdirSync(BUILDS)) {
    if (entry === keep || entry.startsWith('current.json')) continue;
    const path = join(BUILDS, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS && !runByAnyProcess(path)) rmSync(path, { recursive: true, force: true });
    } catch {
      // another command removed it first
    }
  }
}

/** Whether a process named in the build's RUNNING folder is alive (one killed outright left its name behind). */
function runByAnyProcess(path) {
  let pids;
  try {
    pids = readdirSync(join(path, RUNNING));
  } catch {
    return false;
  }
  return pids.some((name) => {
    const pid = Number(name);
    if (!(pid > 0)) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: alive, but another user's
      return err.code === 'EPERM';
    }
  });
}
