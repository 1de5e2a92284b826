// Loom's generator of realistic Claude Code transcripts: a small live demo tree for
// `loom up --demo`, and a large synthetic corpus for benchmarks.

export { type CorpusOptions, type CorpusStats, writeSyntheticCorpus } from './corpus';
export { DemoHookStates } from './hook-states';
export { projectSlug } from './layout';
export { type LiveAppends, type StopHook, startLiveAppends } from './live';
export { Rng } from './random';
export { CLAUDE_CODE_VERSION, type SessionContext, type TranscriptRecord } from './records';
// Lower level: one session from a script, for tests that need a particular shape.
export { type GeneratedSession, generateSession, type SessionPlan, type SubagentTranscript } from './sessions';
export type { QuestionScript, Step, SubagentScript, TurnScript } from './story/types';
export type { ToolCall } from './tools';
export { type DemoSession, type DemoTree, writeDemoTree } from './tree';
