// Loom's generator of realistic Claude Code transcripts: a small live demo tree for
// `loom up --demo`, and a large synthetic corpus for benchmarks.

export { writeDemoTree, type DemoSession, type DemoTree } from './tree';
export { startLiveAppends, type LiveAppends } from './live';
export { writeSyntheticCorpus, type CorpusOptions, type CorpusStats } from './corpus';
export { projectSlug } from './layout';

// Lower level: one session from a script, for tests that need a particular shape.
export { generateSession, type GeneratedSession, type SessionPlan, type SubagentTranscript } from './sessions';
export { Rng } from './random';
export { CLAUDE_CODE_VERSION, type SessionContext, type TranscriptRecord } from './records';
export type { ToolCall } from './tools';
export type { QuestionScript, Step, SubagentScript, TurnScript } from './story/types';
