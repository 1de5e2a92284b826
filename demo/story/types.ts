// The shape of the invented coding sessions: Quayside, a berth-booking platform for small
// marinas, worked on by one developer and Claude across four repositories.

import type { ToolCall } from '../tools';

/** One API response: optional prose, then one or more tool calls (several run in parallel). */
export interface Step {
  text?: string;
  calls: ToolCall[];
}

export interface TurnScript {
  prompt: string;
  thinking: string;
  steps: Step[];
  reply: string;
}

/** Work handed to a subagent through the Task tool. */
export interface SubagentScript {
  description: string;
  prompt: string;
  steps: Step[];
  report: string;
}

/** A turn that stops to ask the user something, left unanswered. */
export interface QuestionScript {
  prompt: string;
  thinking: string;
  text: string;
  question: {
    question: string;
    header: string;
    options: { label: string; description: string }[];
  };
}

export interface Topic {
  title: string;
  gitBranch: string;
  turns: TurnScript[];
  subagent?: SubagentScript;
  question?: QuestionScript;
}

/** What generic follow-up turns need to know about a repository. */
export interface RepoFacts {
  testCommand: string;
  passingTestOutput: string;
  sourceFile: string;
  sourceLines: readonly string[];
}

export interface DemoProject {
  cwd: string;
  model: string;
  facts: RepoFacts;
  topics: Topic[];
}
