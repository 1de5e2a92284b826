import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCorpus } from '../../demo/index';
import { type Json, time } from '../../spoke/transcripts/fields';
import { scanLine } from '../../spoke/transcripts/line-scanner';
import { isScannerReadBuffer, scannerReadBuffer } from '../../spoke/transcripts/line-scanner-memory';
import type { LineValues, Plan, Want } from '../../spoke/transcripts/line-scanner-plans';
import { valuesOf as valuesOfParsed } from '../../spoke/transcripts/line-values';
import { placeOf } from '../../spoke/transcripts/paths';
import { parseLine, readParsedLine, readRecord, type TranscriptRecord } from '../../spoke/transcripts/record';
import { KEYS, RECORD_FIELDS, RECORD_PLAN, recordPlan } from '../../spoke/transcripts/record-fields';
import { FIXTURES } from '../helpers/kernel';
import { assistant, prompt, readerLine, toolResult, toolUse } from '../helpers/records';

// The fast path (line-scanner.ts reading record-fields.ts) must give the index exactly what
// JSON.parse of the whole line gives it, line by line, or say it is unsure and leave the line to
// JSON.parse. Checked on every real fixture line, a generated corpus and hand-made edge lines.

// the leak test collects garbage itself
setFlagsFromString('--expose-gc');

const PUBLIC = join(import.meta.dirname, '..', '..', '..', 'public-transcripts');

type Role = 'main' | 'subagent';
type Outcome = TranscriptRecord | string;

const placeFor = (role: Role, length = 0) => ({ file: 'f.jsonl', fsid: 'f', offset: 0, length, role });

/** Today's path: the whole line parsed, then read. */
function slowPath(text: string, role: Role, length = 0): Outcome {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  return readParsedLine(raw, placeFor(role, length));
}

/** The values the scanner writes, read the same way; null when the scanner is unsure. */
function fastPath(bytes: Buffer, start: number, end: number, role: Role): Outcome | null {
  const values = scanLine(bytes, start, end, recordPlan(role));
  return values === null ? null : readRecord(values, placeFor(role));
}

interface Tally {
  lines: number;
  fallbacks: number;
  /** lines where the two paths disagree: the first few, for the failure message */
  differ: string[];
}

/** Both paths over every line of every transcript under `root`. */
function compareTree(root: string): Tally {
  const tally: Tally = { lines: 0, fallbacks: 0, differ: [] };
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    const path = join(entry.parentPath, entry.name);
    const role = placeOf(root, path)?.role ?? 'main';
    const bytes = readFileSync(path);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      if (end > start) {
        tally.lines++;
        const fast = fastPath(bytes, start, end, role);
        if (fast === null) tally.fallbacks++;
        else if (!isDeepStrictEqual(fast, slowPath(bytes.toString('utf8', start, end), role)) && tally.differ.length < 3) {
          tally.differ.push(`${relative(root, path)} at byte ${start}`);
        }
      }
      start = end + 1;
    }
  }
  return tally;
}

describe('the fast path on real transcripts', () => {
  it('gives every fixture line the record JSON.parse gives it, and is taken for nearly all of them', () => {
    const tally = compareTree(FIXTURES);
    expect(tally.differ).toEqual([]);
    expect(tally.lines).toBeGreaterThan(8000);
    expect(tally.fallbacks).toBeLessThanOrEqual(tally.lines / 1000);
  });

  it.skipIf(!existsSync(PUBLIC))('gives every line of the public transcripts the record JSON.parse gives it', () => {
    const tally = compareTree(PUBLIC);
    expect(tally.differ).toEqual([]);
    expect(tally.fallbacks).toBeLessThanOrEqual(tally.lines / 1000);
  });
});

describe('the fast path on a generated corpus', () => {
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-scanner-'));
    await writeSyntheticCorpus(root, { totalBytes: 3 * 1024 * 1024, files: 12, seed: 5 });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('gives every line the record JSON.parse gives it, never falling back', () => {
    const tally = compareTree(root);
    expect(tally.differ).toEqual([]);
    expect(tally.lines).toBeGreaterThan(1000);
    expect(tally.fallbacks).toBe(0);
  });
});

const user = (extra: string) => `{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T10:00:00Z",${extra}}`;
const text = (body: string) => user(`"message":{"role":"user","content":[{"type":"text","text":"${body}"}]}`);

/** Lines the fast path reads itself: the record must be JSON.parse's. */
const READ_FAST: [string, string][] = [
  ['an escaped quote ends a kept string', text('say \\"hi\\"')],
  ['an escaped backslash before the closing quote', text('a path C:\\\\')],
  ['three backslashes and a quote inside a string', text('odd \\\\\\" run')],
  ['an escaped quote ending a skipped string', user('"toolUseResult":"he said \\"no\\"","message":{"role":"user","content":"after"}')],
  ['an escaped backslash ending a skipped string', user('"toolUseResult":"C:\\\\","message":{"role":"user","content":"after"}')],
  [
    'a long skipped string with escaped quotes near its end',
    user(`"toolUseResult":"${'x'.repeat(100)}\\\\\\"${'y'.repeat(40)}\\\\","message":{"role":"user","content":"after"}`),
  ],
  ['\\u escapes and a surrogate pair in a kept string', text('caf\\u00e9 \\ud83d\\ude00 \\n\\t\\/')],
  ['non-ASCII in kept and skipped strings', user('"toolUseResult":"naïve ✓ 😀","message":{"role":"user","content":"naïve café ✓ 😀"}')],
  ['a kept value that comes twice (the last wins)', `${user('"message":{"role":"user","content":"first"}').slice(0, -1)},"uuid":"u2","isMeta":true}`],
  [
    'white space between every token',
    ' { "type" : "user" , "uuid" : "u1" , "message" : { "role" : "user" , "content" : [ { "type" : "text" , "text" : "hi" } ] } , "extra" : [ 1 , { } ] } \r',
  ],
  ['tabs between tokens', '{\t"type":\t"system",\t"uuid":"s1","subtype":"local_command","content":"done"}'],
  [
    'numbers in every JSON form, kept and skipped',
    `{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","model":"x","usage":{"input_tokens":-0,"output_tokens":1.5e3,"cache_read_input_tokens":123456789012345678,"cache_creation_input_tokens":0.000001,"cache_creation":{"ephemeral_5m_input_tokens":1E+2,"ephemeral_1h_input_tokens":2e-2}},"content":[]},"n":[0,-1,1.25,-3e10,4E-5,10]}`,
  ],
  ['empty arrays and objects everywhere', `{"type":"assistant","uuid":"a1","message":{"content":[],"usage":{}},"data":{},"attachment":{},"x":[[],{}]}`],
  ['deep nesting in a skipped value', user(`"toolUseResult":${'['.repeat(50)}1${']'.repeat(50)},"message":{"role":"user","content":"deep"}`)],
  [
    'true, false and null kept and skipped',
    user('"isSidechain":true,"isMeta":false,"promptSource":null,"x":[true,false,null],"message":{"role":"user","content":"hi"}'),
  ],
  ['a message that is a string where an object is expected', user('"message":"just text"')],
  ['content that is neither string nor array', user('"message":{"role":"user","content":42}')],
  ['a tool result that names a created task, as a string and as blocks', toolResultLines()],
  ['a tool result that starts with an escape standing for another character', toolResultWith('"\\u001b[1mbold\\u001b[0m"')],
  ['a tool result that starts with a newline', toolResultWith('"\\nTask #3 created successfully: x"')],
  [
    'a goal tool whose input comes before its name',
    `{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","content":[{"input":{"todos":[{"content":"write it","status":"pending"}]},"type":"tool_use","name":"TodoWrite","id":"t1"}]}}`,
  ],
  ['a key with non-ASCII bytes', user('"tÿpe":"x","message":{"role":"user","content":"hi"}')],
  ['a time in the usual form', timed('"2026-02-29T23:59:59.999Z"')],
  ['a time written with an escape', timed('"2026-01-31T10:00:00.000\\u005a"')],
  ['a time in another form Date.parse reads', timed('"2026-01-31T10:00:00+02:00"')],
  ['a time of 24 bytes in no form', timed('"2026-01-31 10:00:00.000Z"')],
  ['a time with a byte past ASCII', timed('"2026-01-31T10:00:00.000Ż"')],
  ['a time that is a number', timed('1769853600000')],
  ['a time that is an object', timed('{"at":"2026-01-31T10:00:00.000Z"}')],
  ['a line with no type', '{"uuid":"u1"}'],
  ['an empty object', '{}'],
];

/** An assistant line whose time (and the time of a subagent's message inside a progress line) is the JSON text `at`. */
function timed(at: string): string {
  return `{"type":"progress","uuid":"g1","timestamp":${at},"data":{"type":"agent_progress","message":{"type":"assistant","timestamp":${at},"message":{"id":"m","usage":{"output_tokens":1}}}}}`;
}

/** A tool result line whose content is the JSON text `content`. */
function toolResultWith(content: string): string {
  return user(`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":${content}}]}`);
}

function toolResultLines(): string {
  return JSON.stringify(
    toolResult('r1', 'a1', 't1', [
      { type: 'text', text: 'Task #12 created successfully: write it' },
      { type: 'image', source: { data: 'AAAA' } },
    ]),
  );
}

/** Lines the scanner must leave to JSON.parse, so a broken line is reported as today. */
const FALL_BACK: [string, string][] = [
  ['a truncated line', text('cut here').slice(0, 60)],
  ['a line cut inside a skipped string', user('"toolUseResult":"never closed')],
  ['trailing garbage', `${text('hi')} x`],
  ['two objects on one line', `${text('hi')}{}`],
  ['a top-level array', '[{"type":"user"}]'],
  ['a top-level string', '"user"'],
  ['a top-level number', '42'],
  ['a top-level null', 'null'],
  ['a byte-order mark', `\ufeff${text('hi')}`],
  ['a trailing comma', '{"type":"user","uuid":"u1",}'],
  ['a missing colon', '{"type" "user"}'],
  ['a number with a leading zero', '{"type":"user","n":01}'],
  ['a number with a bare dot', '{"type":"user","n":1.}'],
  ['a misspelt literal', '{"type":"user","isMeta":ture}'],
  ['single quotes', "{'type':'user'}"],
  ['a bracket that does not match', '{"type":"user","x":[1}'],
  ['an escape in a key', '{"typ\\u0065":"user","uuid":"u1"}'],
  ['a bad escape in a kept string', text('bad \\x escape')],
  ['a bad escape in a field a user line is read for', user('"cwd":"C:\\q","message":{"role":"user","content":"hi"}')],
  ['a raw tab in a kept string', text('raw\ttab')],
  ['a created task whose prefix is written with a \\u escape', toolResultWith('"\\u0054ask #3 created successfully: x"')],
  ['a created task in a block whose prefix holds an escape', toolResultWith('[{"type":"text","text":"Task\\u0020#3 created successfully: x"}]')],
  ['a raw tab in a skipped string', user('"toolUseResult":"raw\ttab","message":{"role":"user","content":"hi"}')],
  ['a bad escape in a skipped string', user('"toolUseResult":"C:\\q","message":{"role":"user","content":"hi"}')],
  ['a short \\u escape in a skipped string', user('"toolUseResult":"\\u12","message":{"role":"user","content":"hi"}')],
  [
    'a raw tab in a field a record of another type is read for',
    '{"type":"progress","uuid":"g1","parentUuid":null,"cwd":"raw\ttab","data":{"type":"hook_progress"}}',
  ],
  [
    'a bad escape in a field a record of another type is read for',
    '{"type":"progress","uuid":"g1","parentUuid":null,"cwd":"C:\\q","data":{"type":"hook_progress"}}',
  ],
  ['a raw tab in a key of a skipped object', user('"toolUseResult":{"a\tb":1},"message":{"role":"user","content":"hi"}')],
  // the line's values would keep the fields of the first one
  [
    'an object the index reads into that comes twice',
    `${user('"message":{"role":"user","content":"first"}').slice(0, -1)},"uuid":"u2","message":{"role":"user","content":"second"}}`,
  ],
  ['a kept object that comes twice, the second one empty', `${user('"message":{"role":"user","content":"first"}').slice(0, -1)},"message":{}}`],
  ['a kept object, then a string under its key', `${user('"message":{"role":"user","content":"first"}').slice(0, -1)},"message":"second"}`],
  ['a string, then a kept object under its key', `${user('"message":"first"').slice(0, -1)},"message":{"role":"user","content":"second"}}`],
  ['nesting deeper than the scanner goes', user(`"toolUseResult":${'['.repeat(200)}${']'.repeat(200)}`)],
];

describe('the fast path on edge lines', () => {
  it.each(READ_FAST)('reads %s as JSON.parse does', (_, line) => {
    const bytes = Buffer.from(line);
    const fast = fastPath(bytes, 0, bytes.length, 'main');
    expect(fast).not.toBeNull();
    expect(fast).toStrictEqual(slowPath(line, 'main'));
  });

  it.each(FALL_BACK)('leaves %s to JSON.parse, which reports it as today', (_, line) => {
    const bytes = Buffer.from(line);
    expect(fastPath(bytes, 0, bytes.length, 'main')).toBeNull();
    expect(parseLine(readerLine(line), 'f.jsonl', { fsid: 'f', role: 'main' })).toStrictEqual(slowPath(line, 'main', bytes.length));
  });

  it('reads every edge line where it lies in a read buffer of its own memory, as JSON.parse does', () => {
    const buffer = scannerReadBuffer()!;
    expect(isScannerReadBuffer(buffer)).toBe(true);
    for (const [name, line] of [...READ_FAST, ...FALL_BACK]) {
      // after other bytes, and before bytes that would close a line cut short
      const bytes = Buffer.from(line);
      buffer.write('{"type":"x"}\n', 0);
      bytes.copy(buffer, 13);
      buffer.write('"}]}}\n', 13 + bytes.length);
      const fast = fastPath(buffer, 13, 13 + bytes.length, 'main');
      const expected = READ_FAST.some(([n]) => n === name) ? slowPath(line, 'main') : null;
      expect(fast, name).toStrictEqual(expected);
      if (fast === null) expect(parseLine(readerLine(line), 'f.jsonl', { fsid: 'f', role: 'main' }), name).toStrictEqual(slowPath(line, 'main', bytes.length));
    }
  });

  it('reads a line in the middle of a buffer without looking past its end', () => {
    const line = text('middle');
    const bytes = Buffer.from(`${text('before')}\n${line}\n"}]}garbage`);
    const start = bytes.indexOf(line);
    expect(fastPath(bytes, start, start + Buffer.byteLength(line), 'main')).toStrictEqual(slowPath(line, 'main'));
    // cut short inside the buffer, the line is unsure even though the bytes after it would close it
    expect(fastPath(bytes, start, start + 40, 'main')).toBeNull();
  });
});

describe('the WebAssembly walk', () => {
  const readsAsJsonParse = (line: string) => {
    const bytes = Buffer.from(line);
    const fast = fastPath(bytes, 0, bytes.length, 'main');
    return fast !== null && isDeepStrictEqual(fast, slowPath(line, 'main'));
  };

  it('reads kept and skipped strings with an escape or a byte past ASCII at every place around its sixteen-byte steps', () => {
    const odd: string[] = [];
    for (const special of ['é', '😀', '\\"', '\\\\', '\\n', '\\u00e9']) {
      for (let length = 0; length <= 40; length++) {
        for (let at = 0; at <= length; at++) {
          const body = `${'a'.repeat(at)}${special}${'b'.repeat(length - at)}`;
          if (!readsAsJsonParse(text(body))) odd.push(`kept ${special} at ${at} of ${length}`);
          if (!readsAsJsonParse(user(`"toolUseResult":"${body}","message":{"role":"user","content":"after"}`)))
            odd.push(`skipped ${special} at ${at} of ${length}`);
        }
      }
    }
    expect(odd).toEqual([]);
  });

  it('finds every key it reads, and steps over every other, whatever their length around its sixteen-byte steps', () => {
    const odd: string[] = [];
    for (let length = 0; length <= 40; length++) {
      const other = 'k'.repeat(length);
      // a key the plan does not read before the ones it does, one inside a read object, one ending the line
      if (!readsAsJsonParse(`{"${other}":1,${text('body').slice(1)}`)) odd.push(`${length} first`);
      if (!readsAsJsonParse(user(`"message":{"${other}":"x","role":"user","content":"prompt"}`))) odd.push(`${length} inside`);
      if (!readsAsJsonParse(`${text('body').slice(0, -1)},"${other}":{}}`)) odd.push(`${length} last`);
      // a read key's name as the start or the end of a longer one
      if (!readsAsJsonParse(`{"uuid${other}":"z","type${other}":"y",${text('body').slice(1)}`)) odd.push(`${length} longer`);
    }
    expect(odd).toEqual([]);
  });

  it('leaves a key written with an escape, or holding a raw control byte, to JSON.parse', () => {
    for (const line of [text('body').replace('"type"', '"ty\\u0070e"'), text('body').replace('"role"', '"ro\tle"')]) {
      const bytes = Buffer.from(line);
      expect(fastPath(bytes, 0, bytes.length, 'main')).toBeNull();
    }
  });

  it('leaves a kept string with a raw control byte at any place to JSON.parse', () => {
    for (let at = 0; at <= 40; at++) {
      const bytes = Buffer.from(text(`${'a'.repeat(at)}\t${'b'.repeat(40 - at)}`));
      expect(fastPath(bytes, 0, bytes.length, 'main')).toBeNull();
    }
  });

  it('does not read the bytes a longer line before it left in its memory', () => {
    const whole = Buffer.from(text(`${'x'.repeat(100)}`));
    expect(fastPath(whole, 0, whole.length, 'main')).not.toBeNull();
    // the same line cut inside its kept string: the rest of it is still in the scanner's memory
    for (const cut of [70, 90, 110, whole.length - 3]) expect(fastPath(whole, 0, cut, 'main')).toBeNull();
  });

  it('reads a line longer than its resident memory in a memory of its own, and the lines after it as before', () => {
    const long = user(`"toolUseResult":"${'z'.repeat(3 * 1024 * 1024)}","message":{"role":"user","content":"after the long part"}`);
    expect(readsAsJsonParse(long)).toBe(true);
    expect(readsAsJsonParse(text('short again'))).toBe(true);
  });

  it('leaves a line with more kept values than its tape holds to JSON.parse, which reads it', () => {
    const blocks = Array.from({ length: 20_000 }, (_, i) => ({ type: 'text', text: `part ${i}` }));
    const line = JSON.stringify({ ...prompt('p1', null, ''), message: { role: 'user', content: blocks } });
    const bytes = Buffer.from(line);
    expect(fastPath(bytes, 0, bytes.length, 'main')).toBeNull();
    expect(parseLine(readerLine(line), 'f.jsonl', { fsid: 'f', role: 'main' })).toStrictEqual(slowPath(line, 'main', bytes.length));
  });

  it('keeps nothing of a line it leaves to JSON.parse after a large kept value', () => {
    const gc = runInNewContext('gc') as () => void;
    // a large kept summary, then a kept content with a raw tab, which JSON.parse rejects
    const line = Buffer.from(`{"type":"system","uuid":"s1","summary":"${'s'.repeat(200 * 1024)}","content":"raw\ttab"}`);
    expect(fastPath(line, 0, line.length, 'main')).toBeNull();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200; i++) expect(fastPath(line, 0, line.length, 'main')).toBeNull();
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10 * 1024 * 1024);
  });

  it('keeps nothing of a line once the next is read, however shallow', () => {
    const gc = runInNewContext('gc') as () => void;
    const retained = (next: string): number => {
      gc();
      const before = process.memoryUsage().external + process.memoryUsage().heapUsed;
      // a prompt of 40 MB, kept (its text), nested (message) and with a deferred time; its buffer unreachable once read
      expect(readsAsJsonParse(text('p'.repeat(40 << 20)))).toBe(true);
      const small = Buffer.from(next);
      expect(scanLine(small, 0, small.length, RECORD_PLAN)).not.toBeNull();
      // twice: a buffer's memory goes back in the collection after the one that finds it unreachable
      gc();
      gc();
      return process.memoryUsage().external + process.memoryUsage().heapUsed - before;
    };
    expect(retained(text('deep again'))).toBeLessThan(8 << 20);
    expect(retained('{"type":"summary","summary":"s","leafUuid":"l"}')).toBeLessThan(8 << 20);
  });

  it('holds nothing of a 40 MB line but the little its record keeps, read by the scanner or by JSON.parse', () => {
    const gc = runInNewContext('gc') as () => void;
    const used = () => {
      gc();
      gc();
      return process.memoryUsage().external + process.memoryUsage().heapUsed;
    };
    /** what reading a line leaves held with its record, gone once the record is and the next line read */
    const retained = (read: () => unknown): number => {
      let record = read();
      const holding = used();
      expect(record).toMatchObject({ kind: 'graph' });
      record = null;
      expect(parseLine(readerLine(text('small')), 'f.jsonl', { fsid: 'f', role: 'main' })).toMatchObject({ kind: 'graph' });
      return holding - used();
    };
    const big = 'p'.repeat(40 << 20);
    const lines = {
      // its first line is the record's promptLine: a slice of the prompt would hold all of it
      'a 40 MB prompt': text(`a first line of the prompt\\n${big}`),
      'a 40 MB prompt sent through Loom': user(
        `"isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\\n[loom:msg-0123456789abcdef] first line\\n${big}"}`,
      ),
      'a 40 MB plan': JSON.stringify(assistant('a1', null, [toolUse('t1', 'ExitPlanMode', { plan: `# The plan, in one line\n${big}` })])),
    };
    for (const [name, line] of Object.entries(lines)) {
      expect(
        retained(() => parseLine(readerLine(line), 'f.jsonl', { fsid: 'f', role: 'main' })),
        `${name}, scanned`,
      ).toBeLessThan(8 << 20);
      expect(
        retained(() => readParsedLine(JSON.parse(line), placeFor('main'))),
        `${name}, parsed whole`,
      ).toBeLessThan(8 << 20);
    }
  });

  describe('where it cannot run', () => {
    let dir: string;
    /** a process that parses one line and says what the scanner's problem was */
    let probe: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'loom-scanner-'));
      const here = join(import.meta.dirname, '..', '..');
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        [
          `import { LINE_SCANNER_PROBLEM } from '${here}/spoke/transcripts/line-scanner-memory';`,
          `import { parseLine } from '${here}/spoke/transcripts/record';`,
          `import { readerLine } from '${here}/test/helpers/records';`,
          `const record = parseLine(readerLine(${JSON.stringify(text('hi'))}), 'f.jsonl', { fsid: 'f', role: 'main' });`,
          'console.log(JSON.stringify({ problem: LINE_SCANNER_PROBLEM, record }));',
        ].join('\n'),
      );
      probe = join(dir, 'entry.mjs');
      await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: probe, logLevel: 'silent' });
    }, 30_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each([
      // a WebAssembly memory reserves about 10 GB of address space; 4 GB is plenty for Node itself
      ['its memory cannot be reserved', 'ulimit -v 4000000 &&', '', /could not reserve its WebAssembly memory/],
      ['Node runs without WebAssembly', '', '--jitless', /its WebAssembly does not compile here/],
    ])('parses every line whole where %s, and says why', (_, limit, flag, why) => {
      const out = execFileSync('bash', ['-c', `${limit} exec "${process.execPath}" ${flag} "${probe}"`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const { problem, record } = JSON.parse(out);
      expect(problem).toMatch(why);
      expect(record).toStrictEqual(JSON.parse(JSON.stringify(slowPath(text('hi'), 'main', Buffer.byteLength(text('hi'))))));
    });
  });

  it('is the WebAssembly line-scanner.as.ts builds to (npm run build:scanner)', async () => {
    // imported here: the compiler failing to load fails this test alone
    const { lineScannerModule, MODULE_FILE } = await import('../../spoke/transcripts/line-scanner-build');
    expect(readFileSync(MODULE_FILE, 'utf8')).toBe(await lineScannerModule());
  }, 60_000);
});

/** The paths of the values a line holds, outside arrays. */
function keptPaths(values: LineValues, plan: Plan = RECORD_PLAN, at = ''): string[] {
  return [...(plan.fields ?? [])].flatMap(([name, { key, plan: within }]) => {
    const path = `${at}${name}`;
    return values[key] === undefined ? [] : [path, ...keptPaths(values, within, `${path}.`)];
  });
}

describe("a line's values", () => {
  const valuesOf = (record: unknown): LineValues => {
    const bytes = Buffer.from(JSON.stringify(record));
    return scanLine(bytes, 0, bytes.length, RECORD_PLAN)!;
  };
  const blocks = (record: unknown) => valuesOf(record)[KEYS.messageContent] as Json[];

  it("hold a tool call's input only for the tools goals are made of", () => {
    const write = toolUse('t1', 'Write', { file_path: '/a', content: 'x'.repeat(10_000) });
    const todo = toolUse('t2', 'TodoWrite', { todos: [{ content: 'a', status: 'pending' }] });
    const [first, second] = blocks(assistant('a1', null, [write, todo]));
    expect(first).toEqual({ type: 'tool_use', id: 't1', name: 'Write' });
    expect(second.input).toEqual(todo.input);
  });

  it("leave out a tool result's content unless it names a created task", () => {
    const [plain] = blocks(toolResult('r1', 'a1', 't1', 'a long file body'));
    const [task] = blocks(toolResult('r2', 'a1', 't2', 'Task #3 created successfully: x'));
    expect(plain.content).toBeUndefined();
    expect(task.content).toBe('Task #3 created successfully: x');
  });

  it("step over the fields a record of another type is read for: a prompt's text, cwd and branch, a plain progress line's time", () => {
    const answer = valuesOf(assistant('a1', 'p1', [{ type: 'text', text: 'x'.repeat(500) }]));
    expect(answer[KEYS.messageContent]).toEqual([{ type: 'text' }]);
    expect(keptPaths(answer)).not.toContain('cwd');
    expect(keptPaths(answer)).not.toContain('gitBranch');
    expect(answer[KEYS.timestamp]).toEqual(expect.any(Number));
    const hook = valuesOf({ ...prompt('h1', null, ''), type: 'progress', message: undefined, data: { type: 'hook_progress' } });
    expect(keptPaths(hook).sort()).toEqual(['data', 'data.type', 'isSidechain', 'parentUuid', 'sessionId', 'type', 'uuid']);
    const subagent = valuesOf({ ...prompt('h2', null, ''), type: 'progress', message: undefined, data: { type: 'agent_progress' } });
    expect(subagent[KEYS.timestamp]).toEqual(expect.any(Number));
  });

  it('hold a time as the epoch ms time() reads from its string, or null where it reads none', () => {
    const at = (v: unknown) => valuesOf({ type: 'user', uuid: 'u1', timestamp: v })[KEYS.timestamp];
    for (const v of [
      '2026-01-31T10:00:00.000Z',
      '2024-02-30T00:00:00.000Z',
      '2026-01-31T10:00:00Z',
      '2026-01-31T10:00:00.000Ż',
      'yesterday',
      17,
      null,
      {},
      [],
    ]) {
      expect(at(v), JSON.stringify(v)).toBe(time(v));
      expect(valuesOfParsed({ type: 'user', uuid: 'u1', timestamp: v }, RECORD_PLAN)[KEYS.timestamp], JSON.stringify(v)).toBe(time(v));
    }
    expect(at('2026-01-31T10:00:00.000Z')).toBe(Date.parse('2026-01-31T10:00:00.000Z'));
  });

  it('leave out every field the index does not read', () => {
    const read = valuesOf({ ...prompt('p1', null, 'hi'), toolUseResult: { stdout: 'big' }, version: '2.1.0', userType: 'external' });
    expect(keptPaths(read).sort()).toEqual([
      'cwd',
      'gitBranch',
      'isSidechain',
      'message',
      'message.content',
      'parentUuid',
      'sessionId',
      'timestamp',
      'type',
      'uuid',
    ]);
    expect(read[KEYS.messageContent]).toBe('hi');
  });

  it("hold a line's session id in a subagent's file only, where it names the parent session", () => {
    const bytes = Buffer.from(JSON.stringify(prompt('p1', null, 'hi')));
    expect(scanLine(bytes, 0, bytes.length, recordPlan('main'))![KEYS.sessionId]).toBeUndefined();
    expect(scanLine(bytes, 0, bytes.length, recordPlan('subagent'))![KEYS.sessionId]).toEqual(expect.any(String));
  });

  it('are the same whether the scanner wrote them or JSON.parse read the line', () => {
    const line = { ...prompt('p1', null, 'hi'), toolUseResult: { stdout: 'big' }, data: 'not an object' };
    const scanned = [...valuesOf(line)];
    expect(scanned).toEqual([...valuesOfParsed(JSON.parse(JSON.stringify(line)), RECORD_PLAN)]);
  });
});

/** Whether record-fields.ts reads the value at `path` (array items as '*'). */
function wanted(path: string[]): boolean {
  let want: Want | undefined = RECORD_FIELDS;
  for (const step of path) {
    if (!want || (!want.fields && !want.items)) return true; // read whole from here down
    want = step === '*' ? want.items : want.fields?.[step];
    if (!want) return false;
  }
  return true;
}

/** The value, wrapped so that every property readRecord reads is noted as a path. */
function watched(value: unknown, path: string[], reads: Set<string>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const isArray = Array.isArray(value);
  return new Proxy(value, {
    get(target, key, receiver) {
      const got: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || (isArray && !/^\d+$/.test(key))) return got;
      const at = [...path, isArray ? '*' : key];
      reads.add(at.join('.'));
      return watched(got, at, reads);
    },
  });
}

describe('record-fields.ts', () => {
  it('lists every field readRecord reads from the fixture lines and the edge lines', () => {
    const reads = new Set<string>();
    const lines = [...READ_FAST.map(([, l]) => l)];
    for (const entry of readdirSync(FIXTURES, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.jsonl')) lines.push(...readFileSync(join(entry.parentPath, entry.name), 'utf8').split('\n'));
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      for (const role of ['main', 'subagent'] as const) readParsedLine(watched(JSON.parse(line), [], reads), placeFor(role));
    }
    expect(reads.size).toBeGreaterThan(40);
    expect([...reads].filter((path) => !wanted(path.split('.')))).toEqual([]);
  });
});
