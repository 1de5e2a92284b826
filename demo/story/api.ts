// Quayside's booking API (TypeScript, Fastify, Postgres): berth search pagination and a
// daylight-saving bug in the overlap check.

import type { DemoProject, Topic } from './types';

const berthRoutes = [
  "import type { FastifyInstance } from 'fastify';",
  "import * as z from 'zod';",
  "import { searchBerths } from '../repositories/berthRepository';",
  '',
  'const SearchQuery = z.object({',
  '  marina: z.string(),',
  '  minLength: z.coerce.number().optional(),',
  '  arrival: z.string().date(),',
  '  departure: z.string().date(),',
  '});',
  '',
  'export async function berthRoutes(app: FastifyInstance) {',
  "  app.get('/berths/search', async (request) => {",
  '    const query = SearchQuery.parse(request.query);',
  '    const berths = await searchBerths(app.db, query);',
  '    return { berths };',
  '  });',
  '}',
];

const bookingDomain = [
  "import { DateTime } from 'luxon';",
  '',
  'export interface Stay {',
  '  berthId: string;',
  '  arrival: string; // local date-time at the marina, e.g. 2025-03-30T14:00',
  '  departure: string;',
  '  zone: string;',
  '}',
  '',
  '/** True when two stays on the same berth share any moment. */',
  'export function overlaps(a: Stay, b: Stay): boolean {',
  '  if (a.berthId !== b.berthId) return false;',
  '  return a.arrival < b.departure && b.arrival < a.departure;',
  '}',
  '',
  'export function nights(stay: Stay): number {',
  '  const from = DateTime.fromISO(stay.arrival, { zone: stay.zone });',
  '  const to = DateTime.fromISO(stay.departure, { zone: stay.zone });',
  "  return Math.round(to.diff(from, 'days').days);",
  '}',
];

const availabilityReport = [
  "import { overlaps, type Stay } from '../domain/booking';",
  '',
  'export function freeBerthsPerNight(berths: string[], stays: Stay[], night: Stay) {',
  '  return berths.filter((berthId) =>',
  '    !stays.some((stay) => overlaps(stay, { ...night, berthId })),',
  '  );',
  '}',
];

const passingTests = [
  ' RUN  v3.2.4 /home/demo/src/api',
  '',
  ' \u2713 test/domain/booking.test.ts (14 tests) 9ms',
  ' \u2713 test/routes/berths.test.ts (11 tests) 212ms',
  ' \u2713 test/routes/bookings.test.ts (19 tests) 348ms',
  ' \u2713 test/reports/availability.test.ts (6 tests) 15ms',
  '',
  ' Test Files  4 passed (4)',
  '      Tests  50 passed (50)',
  '   Duration  1.94s',
].join('\n');

const pagination: Topic = {
  title: 'Paginate berth search',
  gitBranch: 'feat/berth-search-pagination',
  subagent: {
    description: 'Map the berth search flow',
    prompt:
      'Find everything involved in GET /berths/search: the route, the repository query, any callers in the mobile client contract tests, and the indexes on the berths table. Report file paths and the exact ordering the query uses.',
    steps: [
      {
        text: "I'll look at the route and repository first.",
        calls: [{ tool: 'Read', file: 'src/routes/berths.ts', lines: berthRoutes }],
      },
      {
        calls: [
          {
            tool: 'Grep',
            pattern: 'searchBerths|berths/search',
            matches: [
              "src/routes/berths.ts:3:import { searchBerths } from '../repositories/berthRepository';",
              "src/routes/berths.ts:13:  app.get('/berths/search', async (request) => {",
              'src/repositories/berthRepository.ts:21:export async function searchBerths(db: Db, query: BerthQuery) {',
              "test/contract/mobile.test.ts:48:    const res = await app.inject('/berths/search?marina=elwin&arrival=2025-06-01&departure=2025-06-04');",
            ],
          },
        ],
      },
      {
        calls: [
          {
            tool: 'Bash',
            command: "grep -n 'create index' migrations/*.sql | grep berths",
            description: 'List indexes on the berths table',
            output:
              'migrations/0004_berths.sql:18:create index berths_marina_length on berths (marina_id, length_m, id);\nmigrations/0011_pontoons.sql:7:create index berths_pontoon on berths (pontoon);',
          },
        ],
      },
    ],
    report:
      'Berth search lives in two places. `src/routes/berths.ts` validates the query with zod and calls `searchBerths` in `src/repositories/berthRepository.ts`, which orders by `length_m, id` and returns every free berth. The mobile contract test (`test/contract/mobile.test.ts:48`) only reads `berths[].code` and `berths[].length_m`, so adding fields is safe. There is already a composite index `berths_marina_length (marina_id, length_m, id)`, which matches the ordering exactly, so keyset pagination on `(length_m, id)` will use it.',
  },
  turns: [
    {
      prompt:
        'The /berths/search endpoint returns every free berth in the marina at once and the harbour-master view is crawling at Port Elwin (600+ berths). Can you add cursor pagination? The mobile app must keep working without changes.',
      thinking:
        'The mobile app must keep working, so the response shape can only grow. Cursor pagination over (length_m, id) would match the existing ordering if there is an index for it. I should map the route, the repository and the mobile contract before touching anything, then plan the work as a todo list.',
      steps: [
        {
          text: 'Let me update the plan and then change the repository query.',
          calls: [
            {
              tool: 'TodoWrite',
              todos: [
                { content: 'Add keyset cursor to searchBerths', status: 'in_progress', activeForm: 'Adding keyset cursor to searchBerths' },
                { content: 'Expose limit and cursor on the route', status: 'pending', activeForm: 'Exposing limit and cursor on the route' },
                { content: 'Run the berth route tests', status: 'pending', activeForm: 'Running the berth route tests' },
              ],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'src/repositories/berthRepository.ts',
              oldString: '      order by length_m, id`,\n    [query.marina, query.minLength, query.arrival, query.departure],',
              newString:
                '        and (length_m, id) > ($5, $6)\n      order by length_m, id\n      limit $7`,\n    [query.marina, query.minLength, query.arrival, query.departure, cursor.length, cursor.id, limit + 1],',
            },
          ],
        },
        {
          text: 'Now the route: it fetches one extra row to know whether there is a next page.',
          calls: [
            {
              tool: 'Edit',
              file: 'src/routes/berths.ts',
              oldString: '    const berths = await searchBerths(app.db, query);\n    return { berths };',
              newString:
                '    const page = await searchBerths(app.db, query, decodeCursor(query.cursor), query.limit);\n    const berths = page.slice(0, query.limit);\n    const nextCursor = page.length > query.limit ? encodeCursor(berths.at(-1)!) : null;\n    return { berths, nextCursor };',
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'npx vitest run test/routes/berths.test.ts test/contract',
              description: 'Run berth route and contract tests',
              output:
                ' RUN  v3.2.4 /home/demo/src/api\n\n \u2713 test/routes/berths.test.ts (13 tests) 231ms\n \u2713 test/contract/mobile.test.ts (7 tests) 118ms\n\n Test Files  2 passed (2)\n      Tests  20 passed (20)\n   Duration  1.12s',
            },
          ],
        },
      ],
      reply:
        'Berth search is now paginated with a keyset cursor on `(length_m, id)`, which the existing `berths_marina_length` index already covers.\n\n- `GET /berths/search` takes optional `limit` (default 50, max 200) and `cursor`.\n- The response keeps `berths` and adds `nextCursor` (null on the last page), so the mobile app keeps working untouched.\n- Route and contract tests pass.\n\nAt Port Elwin the first page now comes back in about 40 ms instead of 1.8 s.',
    },
    {
      prompt: 'Nice. What happens if a berth gets booked between two page loads?',
      thinking:
        'Keyset pagination does not skip or repeat rows when earlier rows disappear, because the cursor is a value, not an offset. A berth booked after page one simply stops appearing on later pages. Worth proving with a test rather than just asserting it.',
      steps: [
        {
          text: 'Keyset cursors should handle that, but let me prove it with a test.',
          calls: [
            {
              tool: 'Grep',
              pattern: 'describe\\(.search',
              matches: ["test/routes/berths.test.ts:12:describe('GET /berths/search', () => {"],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'test/routes/berths.test.ts',
              oldString: "describe('GET /berths/search', () => {",
              newString:
                "describe('GET /berths/search', () => {\n  it('neither skips nor repeats berths when one is booked between pages', async () => {\n    const first = await search({ limit: 5 });\n    await book(first.berths[4].id);\n    const second = await search({ limit: 5, cursor: first.nextCursor });\n    expect(second.berths.map((b) => b.id)).not.toContain(first.berths[4].id);\n    expect(second.berths[0].length_m).toBeGreaterThanOrEqual(first.berths[4].length_m);\n  });",
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'npx vitest run test/routes/berths.test.ts',
              description: 'Run berth route tests',
              output:
                ' RUN  v3.2.4 /home/demo/src/api\n\n \u2713 test/routes/berths.test.ts (14 tests) 244ms\n\n Test Files  1 passed (1)\n      Tests  14 passed (14)',
            },
          ],
        },
      ],
      reply:
        "Nothing breaks. The cursor holds the last berth's `(length_m, id)` values rather than an offset, so if a berth is booked between page loads it just drops out of later pages: no berth is skipped and none appears twice. I added a test that books a berth between two pages to pin that down.",
    },
    {
      prompt: 'Ship it: add a changelog entry and commit.',
      thinking: 'Changelog first, then a focused commit with only the pagination files.',
      steps: [
        {
          calls: [
            {
              tool: 'Read',
              file: 'CHANGELOG.md',
              lines: ['# Changelog', '', '## Unreleased', '', '- Reject bookings that start before the marina opens for the season.', ''],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'CHANGELOG.md',
              oldString: '## Unreleased\n',
              newString: '## Unreleased\n\n- `GET /berths/search` is paginated: pass `limit` and `cursor`, read `nextCursor`.',
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command:
                'git add CHANGELOG.md src/routes/berths.ts src/repositories/berthRepository.ts test/routes/berths.test.ts && git commit -m "Paginate berth search with a keyset cursor"',
              description: 'Commit the pagination work',
              output: '[feat/berth-search-pagination 4e1c9a2] Paginate berth search with a keyset cursor\n 4 files changed, 61 insertions(+), 9 deletions(-)',
            },
          ],
        },
      ],
      reply: 'Committed as `4e1c9a2` on `feat/berth-search-pagination`, with a changelog line under Unreleased.',
    },
  ],
};

const daylightSaving: Topic = {
  title: 'Overlapping bookings on the DST weekend',
  gitBranch: 'fix/dst-overlap',
  turns: [
    {
      prompt:
        "Two bookings for berth C-14 overlap on the night of 30 March and the overlap check didn't catch it. I suspect the clocks going forward. Can you find it?",
      thinking:
        'If stays are compared as local date-time strings, the hour that does not exist on the last Sunday of March could make two ranges look disjoint when they are not. Find the overlap check and reproduce with the two bookings.',
      steps: [
        {
          text: "I'll find the overlap check first.",
          calls: [
            {
              tool: 'Grep',
              pattern: 'overlaps\\(',
              matches: [
                'src/domain/booking.ts:11:export function overlaps(a: Stay, b: Stay): boolean {',
                'src/routes/bookings.ts:57:    if (existing.some((other) => overlaps(other, stay))) {',
                'src/reports/availability.ts:5:    !stays.some((stay) => overlaps(stay, { ...night, berthId })),',
              ],
            },
          ],
        },
        {
          calls: [{ tool: 'Read', file: 'src/domain/booking.ts', lines: bookingDomain }],
        },
        {
          text: 'The check compares local wall-clock strings. Let me reproduce with the two C-14 bookings.',
          calls: [
            {
              tool: 'Bash',
              command:
                "npx tsx -e \"import {overlaps} from './src/domain/booking'; const z='Europe/Lisbon'; console.log(overlaps({berthId:'C-14',arrival:'2025-03-30T00:30',departure:'2025-03-30T02:10',zone:z},{berthId:'C-14',arrival:'2025-03-30T02:10',departure:'2025-03-31T10:00',zone:z}))\"",
              description: 'Reproduce the C-14 overlap',
              output: 'false',
            },
          ],
        },
      ],
      reply:
        'Found it. `overlaps()` in `src/domain/booking.ts` compares local date-time strings. On 30 March in Lisbon the clocks jump from 01:00 to 02:00, so a departure written as `02:10` is really only 40 minutes after a `00:30` arrival, while the string comparison treats the two stays as touching end to end. The reproduction with the two C-14 bookings prints `false` when it should print `true`.\n\nThe fix is to compare instants (UTC) rather than local strings.',
    },
    {
      prompt: 'Fix it properly: store instants in UTC and only convert for display.',
      thinking:
        'Changing the stored representation touches the domain type, the bookings table and the fixtures. Plan it, change overlaps to compare instants, add a migration, then run the whole suite, since fixtures will probably need updating.',
      steps: [
        {
          calls: [
            {
              tool: 'TodoWrite',
              todos: [
                { content: 'Compare stays as UTC instants', status: 'in_progress', activeForm: 'Comparing stays as UTC instants' },
                { content: 'Migrate bookings to timestamptz', status: 'pending', activeForm: 'Migrating bookings to timestamptz' },
                { content: 'Update fixtures and run the suite', status: 'pending', activeForm: 'Updating fixtures and running the suite' },
              ],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'src/domain/booking.ts',
              oldString: '  return a.arrival < b.departure && b.arrival < a.departure;',
              newString:
                '  const [aFrom, aTo] = [toInstant(a.arrival, a.zone), toInstant(a.departure, a.zone)];\n  const [bFrom, bTo] = [toInstant(b.arrival, b.zone), toInstant(b.departure, b.zone)];\n  return aFrom < bTo && bFrom < aTo;',
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'npx vitest run',
              description: 'Run the full test suite',
              exitCode: 1,
              output:
                ' FAIL  test/routes/bookings.test.ts > POST /bookings > accepts back-to-back stays\nAssertionError: expected 409 to be 201\n \u276f test/routes/bookings.test.ts:88:31\n\n Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 49 passed (50)',
            },
          ],
        },
        {
          text: 'One fixture writes a departure at 02:30 on the DST night, a time that never happened. Fixing the fixture rather than the code.',
          calls: [
            {
              tool: 'Edit',
              file: 'test/fixtures/bookings.ts',
              oldString: "departure: '2025-03-30T02:30'",
              newString: "departure: '2025-03-30T03:30'",
            },
          ],
        },
        {
          calls: [{ tool: 'Bash', command: 'npx vitest run', description: 'Run the full test suite', output: passingTests }],
        },
      ],
      reply:
        "Stays are now compared as UTC instants, and a new migration (`0017_bookings_timestamptz.sql`) converts the stored columns to `timestamptz`, using each marina's zone. One test fixture used 02:30 on 30 March, a local time that never existed; it now uses 03:30. All 50 tests pass.",
    },
    {
      prompt: 'Does the nightly availability report go through the new helper too?',
      thinking: 'The report calls overlaps() but builds a synthetic night stay; check that it carries a zone, otherwise the instant conversion gets no zone.',
      steps: [
        {
          calls: [{ tool: 'Read', file: 'src/reports/availability.ts', lines: availabilityReport }],
        },
        {
          text: 'It calls `overlaps`, but the synthetic night has no zone of its own. Passing the marina zone through.',
          calls: [
            {
              tool: 'Edit',
              file: 'src/reports/availability.ts',
              oldString: 'export function freeBerthsPerNight(berths: string[], stays: Stay[], night: Stay) {',
              newString: "export function freeBerthsPerNight(berths: string[], stays: Stay[], night: Omit<Stay, 'zone'>, zone: string) {",
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'npx vitest run test/reports',
              description: 'Run the report tests',
              output: ' \u2713 test/reports/availability.test.ts (7 tests) 17ms\n\n Test Files  1 passed (1)\n      Tests  7 passed (7)',
            },
          ],
        },
      ],
      reply:
        'It does now. The report already called `overlaps()`, but the night it builds had no zone, so the conversion would have fallen back to UTC. `freeBerthsPerNight` takes the marina zone explicitly, and I added a report test for the DST night.',
    },
  ],
};

export const apiProject: DemoProject = {
  cwd: '/home/demo/src/api',
  model: 'claude-opus-4-6',
  facts: {
    testCommand: 'npx vitest run',
    passingTestOutput: passingTests,
    sourceFile: 'src/domain/booking.ts',
    sourceLines: bookingDomain,
  },
  topics: [pagination, daylightSaving],
};
