// Short turns that fit any repository, for sessions that keep going while the demo runs.

import type { RepoFacts, TurnScript } from './types';

export const followUps: ((repo: RepoFacts) => TurnScript)[] = [
  (repo) => ({
    prompt: 'Run the whole suite once more and tell me if anything else is red.',
    thinking: 'Run the full suite as the project runs it and report only what matters.',
    steps: [{ calls: [{ tool: 'Bash', command: repo.testCommand, description: 'Run the full test suite', output: repo.passingTestOutput }] }],
    reply: 'Everything is green. Nothing else was affected by the change.',
  }),
  (repo) => ({
    prompt: `Take another look at ${repo.sourceFile}. Is there anything you'd tidy before we merge?`,
    thinking: 'Read the file with fresh eyes; suggest only changes that make it clearer, not a rewrite.',
    steps: [{ calls: [{ tool: 'Read', file: repo.sourceFile, lines: repo.sourceLines }] }],
    reply: `\`${repo.sourceFile}\` reads well. Two small things I'd consider: one name still describes how rather than what, and the single comment explains the code instead of the reason for it. Neither blocks the merge.`,
  }),
  (repo) => ({
    prompt: 'Add a comment explaining why we do it this way. Future me will forget.',
    thinking: 'A why-comment at the top of the main function: the constraint that forced the design, in one or two lines.',
    steps: [
      { calls: [{ tool: 'Read', file: repo.sourceFile, lines: repo.sourceLines }] },
      {
        calls: [
          {
            tool: 'Edit',
            file: repo.sourceFile,
            oldString: repo.sourceLines[0] ?? '',
            newString: `${repo.sourceLines[0] ?? ''}\n// Kept deliberately simple: this runs on every request, and the slow path lives elsewhere.`,
          },
        ],
      },
    ],
    reply: `Added a short comment at the top of \`${repo.sourceFile}\` explaining the constraint behind the design.`,
  }),
  (repo) => ({
    prompt: 'Anything left on the list?',
    thinking: 'Mark what is done; the only open item is the review.',
    steps: [
      {
        calls: [
          {
            tool: 'TodoWrite',
            todos: [
              { content: 'Implement the change', status: 'completed', activeForm: 'Implementing the change' },
              { content: 'Run the suite', status: 'completed', activeForm: 'Running the suite' },
              { content: 'Open a pull request for review', status: 'pending', activeForm: 'Opening a pull request' },
            ],
          },
        ],
      },
    ],
    reply: `Only the pull request is left. The change is in and \`${repo.testCommand}\` passes.`,
  }),
  () => ({
    prompt: 'Did we leave any TODOs behind today?',
    thinking: 'Search for TODO and FIXME markers.',
    steps: [{ calls: [{ tool: 'Grep', pattern: 'TODO|FIXME', matches: [] }] }],
    reply: 'No TODO or FIXME markers anywhere in the repository.',
  }),
];
