// Quayside's background worker (Python): a flaky invoice retry test and arrival reminders.

import type { DemoProject, Topic } from './types';

const retryModule = [
  'import random',
  'import time',
  '',
  'from worker.invoices.gateway import GatewayError, send_invoice',
  '',
  'MAX_ATTEMPTS = 5',
  '',
  '',
  'def send_with_retry(invoice, sleep=time.sleep):',
  '    for attempt in range(1, MAX_ATTEMPTS + 1):',
  '        try:',
  '            return send_invoice(invoice)',
  '        except GatewayError:',
  '            if attempt == MAX_ATTEMPTS:',
  '                raise',
  '            delay = min(30, 2 ** attempt) + random.uniform(0, 1)',
  '            sleep(delay)',
];

const reminderSchedule = [
  'from datetime import timedelta',
  '',
  'from worker.db import bookings_arriving_between',
  'from worker.mail import queue_mail',
  '',
  '',
  'def schedule_departure_notices(now):',
  '    for booking in bookings_arriving_between(now, now + timedelta(hours=1)):',
  "        queue_mail('departure_notice', booking.guest_email, booking=booking)",
];

const passingTests = [
  '============================= test session starts ==============================',
  'collected 64 items',
  '',
  'tests/test_invoices.py ...................                                [ 29%]',
  'tests/test_retry.py ..........                                            [ 45%]',
  'tests/test_reminders.py .............                                     [ 65%]',
  'tests/test_mail.py ......................                                 [100%]',
  '',
  '============================== 64 passed in 3.48s ==============================',
].join('\n');

const flakyRetry: Topic = {
  title: 'Flaky invoice retry test',
  gitBranch: 'fix/invoice-retry-flake',
  turns: [
    {
      prompt: 'test_retry_gives_up_after_five_attempts fails about one CI run in five. Can you find out why?',
      thinking:
        'One in five suggests randomness or timing. Run the test many times to get a failure locally, then read the retry loop and look at what the test asserts about the delays.',
      steps: [
        {
          text: "I'll try to reproduce it by running the test repeatedly.",
          calls: [
            {
              tool: 'Bash',
              command: 'python -m pytest tests/test_retry.py -k gives_up --count 30 -q',
              description: 'Run the flaky test 30 times',
              exitCode: 1,
              output:
                '......F.......F..............F\nFAILED tests/test_retry.py::test_retry_gives_up_after_five_attempts[7-30] - assert 31.42 <= 31.0\nFAILED tests/test_retry.py::test_retry_gives_up_after_five_attempts[15-30] - assert 31.87 <= 31.0\nFAILED tests/test_retry.py::test_retry_gives_up_after_five_attempts[30-30] - assert 31.09 <= 31.0\n3 failed, 27 passed in 0.61s',
            },
          ],
        },
        {
          calls: [{ tool: 'Read', file: 'worker/invoices/retry.py', lines: retryModule }],
        },
        {
          calls: [
            {
              tool: 'Grep',
              pattern: '31\\.0|sum\\(delays\\)',
              matches: ['tests/test_retry.py:41:    assert sum(delays) <= 31.0'],
            },
          ],
        },
      ],
      reply:
        "The flake is in the test's arithmetic, not the retry logic. `send_with_retry` waits `min(30, 2 ** attempt)` plus up to one second of random jitter on each of the four retries, so the total can reach 34 seconds. The test asserts `sum(delays) <= 31.0`, which only holds when the jitter happens to be small, roughly four runs in five.",
    },
    {
      prompt: "Make it deterministic, and don't slow the suite down.",
      thinking: 'Inject the random source the same way sleep is injected, then assert exact delays with a seeded generator.',
      steps: [
        {
          calls: [
            {
              tool: 'Edit',
              file: 'worker/invoices/retry.py',
              oldString: 'def send_with_retry(invoice, sleep=time.sleep):',
              newString: 'def send_with_retry(invoice, sleep=time.sleep, jitter=random.random):',
            },
            {
              tool: 'Edit',
              file: 'tests/test_retry.py',
              oldString: '    assert sum(delays) <= 31.0',
              newString: '    assert delays == [2.5, 4.5, 8.5, 16.5]',
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'python -m pytest tests/test_retry.py --count 50 -q',
              description: 'Run the retry tests 50 times',
              output: '..................................................\n500 passed in 0.94s',
            },
          ],
        },
      ],
      reply:
        '`send_with_retry` now takes a `jitter` function beside `sleep`, defaulting to `random.random`. The test passes `lambda: 0.5`, so it checks the exact delays (2.5, 4.5, 8.5, 16.5 s) instead of a loose upper bound. 500 repeated runs pass, and because nothing really sleeps the suite is no slower.',
    },
  ],
};

const arrivalReminders: Topic = {
  title: 'Arrival reminder emails',
  gitBranch: 'feat/arrival-reminders',
  turns: [
    {
      prompt: 'Guests keep missing their arrival window. Send a reminder email 24 hours before arrival.',
      thinking:
        'There is already a scheduler for departure notices; a reminder is the same pattern with a different window and template. Plan, read the scheduler, add the job, test.',
      steps: [
        {
          calls: [
            {
              tool: 'TodoWrite',
              todos: [
                { content: 'Add schedule_arrival_reminders job', status: 'in_progress', activeForm: 'Adding arrival reminder job' },
                { content: 'Add arrival_reminder mail template', status: 'pending', activeForm: 'Adding mail template' },
                { content: 'Cover the 24h window in tests', status: 'pending', activeForm: 'Covering the 24h window in tests' },
              ],
            },
          ],
        },
        {
          calls: [{ tool: 'Read', file: 'worker/reminders/schedule.py', lines: reminderSchedule }],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'worker/reminders/schedule.py',
              oldString: "        queue_mail('departure_notice', booking.guest_email, booking=booking)",
              newString:
                "        queue_mail('departure_notice', booking.guest_email, booking=booking)\n\n\ndef schedule_arrival_reminders(now):\n    window_start = now + timedelta(hours=24)\n    for booking in bookings_arriving_between(window_start, window_start + timedelta(hours=1)):\n        queue_mail('arrival_reminder', booking.guest_email, booking=booking)",
            },
          ],
        },
        {
          calls: [{ tool: 'Bash', command: 'python -m pytest -q', description: 'Run the worker test suite', output: passingTests }],
        },
      ],
      reply:
        'Added `schedule_arrival_reminders`, which runs hourly and queues an `arrival_reminder` email for bookings arriving 24 to 25 hours from now, so each guest gets exactly one. The template lists the berth, the pontoon and the harbour office VHF channel. All 64 tests pass.',
    },
    {
      prompt: "Make sure cancelled bookings don't get a reminder.",
      thinking: 'Check whether bookings_arriving_between already filters on status.',
      steps: [
        {
          calls: [
            {
              tool: 'Grep',
              pattern: 'status',
              matches: ['worker/db.py:22:    # returns bookings in any status, callers filter'],
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Edit',
              file: 'worker/reminders/schedule.py',
              oldString: "        queue_mail('arrival_reminder', booking.guest_email, booking=booking)",
              newString:
                "        if booking.status == 'cancelled':\n            continue\n        queue_mail('arrival_reminder', booking.guest_email, booking=booking)",
            },
          ],
        },
        {
          calls: [
            {
              tool: 'Bash',
              command: 'python -m pytest tests/test_reminders.py -q',
              description: 'Run reminder tests',
              output: '..............\n14 passed in 0.31s',
            },
          ],
        },
      ],
      reply:
        'Cancelled bookings are skipped now; the query returns every status, so the job filters them itself. I added a test with one cancelled and one confirmed arrival.',
    },
  ],
};

export const workerProject: DemoProject = {
  cwd: '/home/demo/src/worker',
  model: 'claude-opus-4-6',
  facts: {
    testCommand: 'python -m pytest -q',
    passingTestOutput: passingTests,
    sourceFile: 'worker/invoices/retry.py',
    sourceLines: retryModule,
  },
  topics: [flakyRetry, arrivalReminders],
};
