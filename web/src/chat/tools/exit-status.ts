// How a Bash call ended. Claude Code marks a non-zero exit as an error whose text starts with
// "Exit code N"; an error without one (a denial, an interruption, 1.0.x stderr) says no code.

export function exitStatus(isError: boolean, text: string): string {
  if (!isError) return 'exit 0';
  const code = /^Exit code (\d+)/.exec(text)?.[1];
  return code ? `exit ${code}` : 'failed';
}
