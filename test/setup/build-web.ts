import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The browser tests drive the built dashboard the kernel serves: build it once per run, as a
// production build (a build started under vitest would inherit NODE_ENV=test and bundle
// React's development build).
export default function buildWeb(): void {
  const root = join(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
