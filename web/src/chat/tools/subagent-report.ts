// A Task's result is the subagent's last message, then a trailer for the model (its agentId and
// how to resume it, the worktree, a <usage> block): the chat links the subagent instead.

const TRAILER = /(^|\n)agentId: [\w-]+ \([^\n]*\)[\s\S]*$/;

export const reportOf = (text: string): string => text.replace(TRAILER, '').trimEnd();
