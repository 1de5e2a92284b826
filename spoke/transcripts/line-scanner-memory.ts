import { LINE_SCANNER_WASM } from './line-scanner-wasm';

// The line scanner's WebAssembly (line-scanner.as.ts) and the memory it reads, laid out here:
// plans from PLANS (address 0 means none) up to TAPE, the tape from TAPE, a line copied in from
// LINE, and from READS the buffers files are read into (tail.ts), whose lines the scanner reads
// where they lie. Each thread has a resident arena for lines up to RESIDENT_LINE bytes; a longer
// line is read in an arena made for it alone, with the plans copied in, which the garbage
// collector frees (a run of long lines can hold a few at once). Where the scanner cannot run (its
// module does not compile, or its memory is refused) there is no arena, and LINE_SCANNER_PROBLEM
// says why.

const PLANS = 16;
export const TAPE = 64 * 1024;
/** Room for 65,536 kept values: a line with more (none is known) is parsed whole. */
export const TAPE_END = TAPE + 1024 * 1024;
/** Where the line is copied to: a tape entry's address less this is its place in the line. */
export const LINE = TAPE_END;
const PAGE = 64 * 1024;
const RESIDENT_LINE = 1024 * 1024;
/** Where read buffers start in the resident arena's memory. */
const READS = LINE + RESIDENT_LINE;
/**
 * Room for read buffers in the resident arena: as many as tail.ts keeps of its size. Address
 * space only until a read fills one, as a buffer outside would be.
 */
export const READ_BUFFER_BYTES = 1024 * 1024;
const READ_BUFFERS = 16;

/** A memory and the scanner instance that reads it. */
export class Arena {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
  /** What turns the last scan's tape addresses into places in the buffer it read. */
  delta = 0;
  private readonly memory: ArrayBuffer;
  private readonly scanner: (plan: number, start: number, stop: number, tapeStart: number, tapeStop: number) => number;
  /** The last read buffer of this memory a line was read from: a Buffer's `buffer` costs a call into the runtime. */
  private readBuffer: Buffer | null = null;

  constructor(wasm: WebAssembly.Module, bytes: number) {
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
    const instance = new WebAssembly.Instance(wasm, { env: { memory } });
    this.scanner = instance.exports.scan as Arena['scanner'];
    this.memory = memory.buffer;
    this.bytes = new Uint8Array(memory.buffer);
    this.words = new Int32Array(memory.buffer, 0, TAPE_END / 4);
  }

  /**
   * The line at [start, end) of `buf` read by the plan at `plan` onto the tape: how many entries,
   * or -1. A line in this memory (a read buffer) is read where it lies, any other copied in.
   */
  scan(buf: Buffer, start: number, end: number, plan: number): number {
    if (buf === this.readBuffer || buf.buffer === this.memory) {
      this.readBuffer = buf;
      this.delta = -buf.byteOffset;
      return this.scanner(plan, buf.byteOffset + start, buf.byteOffset + end, TAPE, TAPE_END);
    }
    // a plain view: Buffer's subarray costs a Buffer's construction, a tenth of the copy
    this.bytes.set(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start), LINE);
    this.delta = start - LINE;
    return this.scanner(plan, LINE, LINE + end - start, TAPE, TAPE_END);
  }
}

type Started = { wasm: WebAssembly.Module; resident: Arena } | { problem: string };

/** The module and the resident arena, or why there are none. */
function start(): Started {
  let wasm: WebAssembly.Module;
  try {
    wasm = new WebAssembly.Module(Buffer.from(LINE_SCANNER_WASM, 'base64'));
  } catch (err) {
    // --jitless has no WebAssembly; x64 without SSE4.1 no SIMD
    return { problem: `its WebAssembly does not compile here (${(err as Error).message})` };
  }
  try {
    return { wasm, resident: new Arena(wasm, READS + READ_BUFFERS * READ_BUFFER_BYTES) };
  } catch (err) {
    // a WebAssembly memory reserves about 10 GB of address space up front
    return { problem: `it could not reserve its WebAssembly memory (${(err as Error).message}; is \`ulimit -v\` low?)` };
  }
}

const started = start();

/** Why lines are parsed whole on this thread; null while the scanner reads them. */
export const LINE_SCANNER_PROBLEM =
  'problem' in started ? `the fast line reader cannot run: ${started.problem}; every transcript line is parsed whole, which is slower` : null;

/** Where plans are written: the resident arena's memory, or a stand-in where there is none. */
export const planBytes = 'resident' in started ? started.resident.bytes : new Uint8Array(TAPE);
export const planWords = new Int32Array(planBytes.buffer, planBytes.byteOffset, TAPE / 4);
/** The next free byte for plans. */
let plansEnd = PLANS;

/** Room for `bytes` of plans: its address. */
export function allocatePlan(bytes: number): number {
  const address = plansEnd;
  plansEnd += (bytes + 3) & ~3;
  if (plansEnd > TAPE) throw new Error('line-scanner: the plans outgrew their room (PLANS to TAPE)');
  return address;
}

/**
 * The arena for a line: the resident one, or for a line longer than it holds one of its own;
 * null when there is none to be had.
 */
export function arenaFor(length: number): Arena | null {
  if (!('resident' in started)) return null;
  if (length <= RESIDENT_LINE) return started.resident;
  try {
    const arena = new Arena(started.wasm, LINE + length);
    arena.bytes.set(planBytes.subarray(0, plansEnd));
    return arena;
  } catch {
    // no memory for this line alone: JSON.parse reads it, or says it cannot
    return null;
  }
}

/** Read buffers handed out so far. */
let readBuffers = 0;

/**
 * A read buffer of READ_BUFFER_BYTES in the resident arena's memory, whose lines the scanner
 * reads without copying them; null once all are handed out, or where the scanner cannot run.
 * One handed out is its holder's for good.
 */
export function scannerReadBuffer(): Buffer | null {
  if (!('resident' in started) || readBuffers === READ_BUFFERS) return null;
  const at = READS + readBuffers++ * READ_BUFFER_BYTES;
  return Buffer.from(started.resident.bytes.buffer, at, READ_BUFFER_BYTES);
}

/** Whether `buffer` is one scannerReadBuffer handed out. */
export const isScannerReadBuffer = (buffer: Buffer): boolean => 'resident' in started && buffer.buffer === started.resident.bytes.buffer;
