import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileString } from 'assemblyscript/asc';

// `npm run build:scanner`: compiles line-scanner.as.ts (AssemblyScript) to WebAssembly and writes
// it into line-scanner-wasm.ts, which the kernel and its workers load (a string in a module, so
// the compiled CLI carries it without a file beside it). A test fails when the two differ.

const SOURCE = fileURLToPath(new URL('./line-scanner.as.ts', import.meta.url));
export const MODULE_FILE = fileURLToPath(new URL('./line-scanner-wasm.ts', import.meta.url));

/** line-scanner-wasm.ts as line-scanner.as.ts builds it. */
export async function lineScannerModule(): Promise<string> {
  const { binary, error, stderr } = await compileString(
    { 'line-scanner.ts': readFileSync(SOURCE, 'utf8') },
    // no allocator and no asserts: the scanner uses memory line-scanner.ts lays out, and checks every bound itself
    { optimizeLevel: 3, shrinkLevel: 0, runtime: 'stub', noAssert: true, enable: ['simd'], importMemory: true, use: ['abort='] },
  );
  if (error || !binary) throw new Error(`line-scanner.as.ts did not compile: ${error?.message}\n${stderr.toString()}`);
  return [
    '// Built by `npm run build:scanner` from line-scanner.as.ts: do not edit.',
    'export const LINE_SCANNER_WASM =',
    `  '${Buffer.from(binary).toString('base64')}';`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(MODULE_FILE, await lineScannerModule());
}
