import type { PermissionUpdate } from '../model/act';
import { BadInputError } from '../model/source';

// What Loom answers Claude Code, as the `decision` of a PermissionRequest hook's output (the same
// shape the Agent SDK's canUseTool returns). Questions and plans travel as allows whose
// `updatedInput` carries the answer: Claude Code ignores a bare allow for both. Sources and
// what Claude Code does with each: docs/hooks.md.

export type Decision =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: 'deny'; message?: string; interrupt?: boolean };

/** A person's answer to a request, before it is put in Claude Code's terms. */
export type Answer =
  | { kind: 'allow'; always: boolean }
  | { kind: 'deny'; message: string }
  | { kind: 'answerQuestion'; answers: { question: string; selected: string[] }[] }
  | { kind: 'approvePlan'; mode: PlanExitMode | null }
  | { kind: 'rejectPlan'; message: string };

/** The permission modes a plan may be approved into (Claude Code's own names). */
export const PLAN_EXIT_MODES = ['default', 'acceptEdits', 'auto'] as const;
export type PlanExitMode = (typeof PLAN_EXIT_MODES)[number];

export class AnswerError extends BadInputError {}

interface RequestShape {
  toolName: string;
  input: Record<string, unknown>;
  suggestions: PermissionUpdate[];
}

/** The decision for this answer to this request; throws AnswerError when the answer does not fit it. */
export function decisionFor(request: RequestShape, answer: Answer): Decision {
  const tool = request.toolName;
  const fits = (kinds: Answer['kind'][]) => {
    if (!kinds.includes(answer.kind)) throw new AnswerError(`a ${tool} request is not answered with ${answer.kind}`);
  };
  if (tool === 'AskUserQuestion') fits(['answerQuestion', 'deny']);
  else if (tool === 'ExitPlanMode') fits(['approvePlan', 'rejectPlan']);
  else fits(['allow', 'deny']);

  switch (answer.kind) {
    case 'allow':
      // "always" is Claude Code's own offer (the rules it suggested), so the terminal and Loom grant the same thing
      if (answer.always && request.suggestions.length === 0) throw new AnswerError('Claude Code offered no "always allow" rule for this request');
      return answer.always ? { behavior: 'allow', updatedPermissions: request.suggestions } : { behavior: 'allow' };
    case 'deny':
    case 'rejectPlan':
      return { behavior: 'deny', message: answer.message };
    case 'answerQuestion':
      return { behavior: 'allow', updatedInput: { ...request.input, answers: answersMap(request.input, answer.answers) } };
    case 'approvePlan': {
      // The input goes back as it came (newer versions ignore an allow without it); without a
      // mode, Claude Code leaves plan mode to the mode it was in before.
      const setMode = answer.mode ? [{ type: 'setMode', mode: answer.mode, destination: 'session' }] : undefined;
      return { behavior: 'allow', updatedInput: request.input, ...(setMode && { updatedPermissions: setMode }) };
    }
  }
}

/**
 * AskUserQuestion's `answers`: question text → the chosen labels, joined with ", " as Claude
 * Code joins a multi-select (a label holding ", " or a quote is JSON-quoted, as it does).
 */
function answersMap(input: Record<string, unknown>, answers: { question: string; selected: string[] }[]): Record<string, string> {
  const asked = new Set(questionsOf(input).map((q) => q.question));
  const map: Record<string, string> = {};
  for (const { question, selected } of answers) {
    if (!asked.has(question)) throw new AnswerError(`"${question}" is not one of the questions asked`);
    if (selected.length === 0 || selected.some((s) => s.trim() === '')) throw new AnswerError(`"${question}" needs an answer`);
    map[question] = selected.map((s) => (s.includes(', ') || s.includes('"') ? JSON.stringify(s) : s)).join(', ');
  }
  const missing = [...asked].filter((q) => !(q in map));
  if (missing.length > 0) throw new AnswerError(`answer every question; missing: ${missing.join(' / ')}`);
  return map;
}

export interface Question {
  question: string;
  header: string;
  multiSelect: boolean;
  options: { label: string; description: string }[];
}

/** AskUserQuestion's questions, as far as the input has them. */
export function questionsOf(input: Record<string, unknown>): Question[] {
  const list = Array.isArray(input.questions) ? input.questions : [];
  return list.flatMap((q): Question[] => {
    if (!q || typeof q !== 'object' || typeof (q as { question?: unknown }).question !== 'string') return [];
    const { question, header, multiSelect, options } = q as Record<string, unknown>;
    return [
      {
        question: question as string,
        header: typeof header === 'string' ? header : '',
        multiSelect: multiSelect === true,
        options: (Array.isArray(options) ? options : []).flatMap((o) =>
          o && typeof o === 'object' && typeof o.label === 'string'
            ? [{ label: o.label, description: typeof o.description === 'string' ? o.description : '' }]
            : [],
        ),
      },
    ];
  });
}
