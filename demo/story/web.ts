// Quayside's web front end (React, Vite): a week view for the booking calendar and an
// accessibility pass over checkout that stops on a question.

import type { DemoProject, Topic } from './types';

const bookingCalendar = [
  "import { useState } from 'react';",
  "import { MonthGrid } from './MonthGrid';",
  "import { useBookings } from '../hooks/useBookings';",
  '',
  'export function BookingCalendar({ marinaId }: { marinaId: string }) {',
  '  const [month, setMonth] = useState(() => startOfMonth(new Date()));',
  '  const bookings = useBookings(marinaId, month);',
  '',
  '  return (',
  '    <section className="calendar">',
  '      <CalendarHeader month={month} onChange={setMonth} />',
  '      <MonthGrid month={month} bookings={bookings} />',
  '    </section>',
  '  );',
  '}',
];

const paymentForm = [
  "import { CardNumber, Expiry, Cvc } from '@quayside/payments';",
  '',
  'export function PaymentForm({ onSubmit }: { onSubmit: () => void }) {',
  '  return (',
  '    <form onSubmit={onSubmit} className="payment">',
  '      <div className="field">',
  '        <span>Card number</span>',
  '        <CardNumber />',
  '      </div>',
  '      <div className="field">',
  '        <span>Expiry</span>',
  '        <Expiry />',
  '      </div>',
  '      <div className="field">',
  '        <span>Security code</span>',
  '        <Cvc />',
  '      </div>',
  '      <button type="submit">Pay deposit</button>',
  '    </form>',
  '  );',
  '}',
];

const passingTests = [
  ' RUN  v3.2.4 /home/demo/src/web',
  '',
  ' \u2713 src/calendar/BookingCalendar.test.tsx (9 tests) 301ms',
  ' \u2713 src/calendar/WeekView.test.tsx (5 tests) 188ms',
  ' \u2713 src/checkout/PaymentForm.test.tsx (8 tests) 264ms',
  '',
  ' Test Files  3 passed (3)',
  '      Tests  22 passed (22)',
].join('\n');

const weekView: Topic = {
  title: 'Week view for the booking calendar',
  gitBranch: 'feat/calendar-week-view',
  turns: [
    {
      prompt: 'Add a week view to the booking calendar. The month grid is unreadable on the tablets the dock staff carry.',
      thinking:
        'The calendar only knows months. A week view needs its own grid component and a toggle in the header; the bookings hook is keyed by month, so a week that spans two months needs both fetched.',
      steps: [
        {
          calls: [{ tool: 'Read', file: 'src/calendar/BookingCalendar.tsx', lines: bookingCalendar }],
        },
        {
          calls: [
            {
              tool: 'TodoWrite',
              todos: [
                { content: 'Create WeekView component', status: 'in_progress', activeForm: 'Creating WeekView component' },
                { content: 'Add month/week toggle to the header', status: 'pending', activeForm: 'Adding month/week toggle' },
                { content: 'Typecheck and run calendar tests', status: 'pending', activeForm: 'Typechecking and running calendar tests' },
              ],
            },
          ],
        },
        {
          text: 'Adding the toggle and rendering WeekView when it is selected.',
          calls: [
            {
              tool: 'Edit',
              file: 'src/calendar/BookingCalendar.tsx',
              oldString: '      <MonthGrid month={month} bookings={bookings} />',
              newString:
                "      {view === 'week' ? (\n        <WeekView start={weekStart} bookings={bookings} />\n      ) : (\n        <MonthGrid month={month} bookings={bookings} />\n      )}",
            },
          ],
        },
        {
          calls: [
            { tool: 'Bash', command: 'npm run typecheck', description: 'Typecheck the web app', output: '> quayside-web@0.9.0 typecheck\n> tsc --noEmit' },
            { tool: 'Bash', command: 'npx vitest run src/calendar', description: 'Run calendar tests', output: passingTests },
          ],
        },
      ],
      reply:
        "The calendar now has a Month / Week toggle in its header. `WeekView` shows seven columns with one row per pontoon, so a berth's stays read left to right, and a week that crosses a month boundary fetches both months. Typecheck and calendar tests pass.",
    },
    {
      prompt: 'Tablets in landscape still open on the month view. Default to week on anything narrower than 1100px.',
      thinking: 'There is probably a media-query hook already; reuse it for the initial view state.',
      steps: [
        {
          calls: [
            {
              tool: 'Grep',
              pattern: 'useMediaQuery',
              matches: [
                'src/hooks/useMediaQuery.ts:3:export function useMediaQuery(query: string): boolean {',
                "src/layout/Sidebar.tsx:9:  const compact = useMediaQuery('(max-width: 900px)');",
              ],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'src/calendar/BookingCalendar.tsx',
              oldString: "  const [view, setView] = useState<'month' | 'week'>('month');",
              newString:
                "  const narrow = useMediaQuery('(max-width: 1099px)');\n  const [view, setView] = useState<'month' | 'week'>(narrow ? 'week' : 'month');",
            },
          ],
        },
        {
          calls: [{ tool: 'Bash', command: 'npx vitest run src/calendar', description: 'Run calendar tests', output: passingTests }],
        },
      ],
      reply: 'Screens narrower than 1100px now open on the week view; wider screens keep the month view. Switching by hand still works either way.',
    },
  ],
};

const checkoutAccessibility: Topic = {
  title: 'Accessibility pass on checkout',
  gitBranch: 'fix/checkout-a11y',
  turns: [
    {
      prompt: "Do an accessibility pass over the checkout payment form. Screen reader users say the card fields aren't announced at all.",
      thinking:
        'The labels are plain spans, so nothing ties them to the inputs. The payment components probably forward an id; use real label elements with htmlFor, then run the a11y lint.',
      steps: [
        {
          calls: [{ tool: 'Read', file: 'src/checkout/PaymentForm.tsx', lines: paymentForm }],
        },
        {
          calls: [
            {
              tool: 'Grep',
              pattern: 'id\\?: string',
              matches: ['node_modules/@quayside/payments/dist/index.d.ts:14:  id?: string;'],
            },
          ],
        },
        {
          text: 'The card components accept an id, so proper labels will work.',
          calls: [
            {
              tool: 'Edit',
              file: 'src/checkout/PaymentForm.tsx',
              oldString: '        <span>Card number</span>\n        <CardNumber />',
              newString: '        <label htmlFor="card-number">Card number</label>\n        <CardNumber id="card-number" />',
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'npm run lint:a11y -- src/checkout',
              description: 'Run the accessibility lint on checkout',
              output: '> quayside-web@0.9.0 lint:a11y\n> eslint --config .eslintrc.a11y.cjs src/checkout\n\n\u2714 No problems found.',
            },
          ],
        },
      ],
      reply:
        'All three card fields now have real `<label>` elements tied to their inputs with `htmlFor`/`id`, so screen readers announce "Card number", "Expiry" and "Security code". The accessibility lint is clean for `src/checkout`.',
    },
  ],
  question: {
    prompt: 'The error messages too, please. They vanish before anyone can read them.',
    thinking:
      'Errors disappear on a two-second timer. There are two reasonable designs: keep each error until its field is fixed, or also announce it through an aria-live region. That is a product decision; ask before building either.',
    text: 'Before I change this, one design choice:',
    question: {
      question: 'How should checkout validation errors behave for screen reader and keyboard users?',
      header: 'Errors',
      options: [
        { label: 'Stay until fixed', description: 'Each error stays under its field until the value is valid; no timer.' },
        { label: 'Stay and announce', description: 'Same, and each new error is also read out through an aria-live region.' },
        { label: 'Summary at top', description: 'Collect errors in a focusable summary above the Pay button.' },
      ],
    },
  },
};

export const webProject: DemoProject = {
  cwd: '/home/demo/src/web',
  model: 'claude-sonnet-4-5-20250929',
  facts: {
    testCommand: 'npx vitest run',
    passingTestOutput: passingTests,
    sourceFile: 'src/calendar/BookingCalendar.tsx',
    sourceLines: bookingCalendar,
  },
  topics: [weekView, checkoutAccessibility],
};
