import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// Many tests start `loom` as a person does: compile it once before they run, rather than in
// each of the first few at the same time (server/bin/compiled.js).
export default function buildCli(): void {
  const root = join(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'server', 'bin', 'loom.js'), '--version'], { cwd: root, stdio: 'ignore' });
}
