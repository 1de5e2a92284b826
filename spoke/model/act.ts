// A permission request Claude Code holds open through Loom's hook, as the model carries it. How
// requests are held, matched and answered is spoke/act's business (requests.ts, decisions.ts).

/** Claude Code's PermissionUpdate, as it suggested it (never one Loom invents). */
export type PermissionUpdate = Record<string, unknown> & { type: string };

/** PENDING until the first answer: Loom's, the terminal's, or none (the hook went away, the wait ran out). */
export type RequestState = 'PENDING' | 'ANSWERED' | 'ANSWERED_AT_TERMINAL' | 'WITHDRAWN' | 'EXPIRED';

export interface PermissionRequest {
  id: string;
  /** Claude Code's session id (the hook's session_id) */
  claudeSessionId: string;
  /** set when a subagent asks */
  agentId: string | null;
  toolName: string;
  input: Record<string, unknown>;
  /** Claude Code's own "always allow" offer */
  suggestions: PermissionUpdate[];
  /** an ExitPlanMode's plan: from the input, or from the plan file it names */
  plan: string | null;
  cwd: string | null;
  permissionMode: string | null;
  /**
   * how Claude Code asks: its PermissionRequest hook (the terminal may answer too; Loom holds it
   * a while), or the Agent SDK's canUseTool in a session Loom drives (held until answered)
   */
  via: 'hook' | 'sdk';
  createdAt: number;
  state: RequestState;
  closedAt: number | null;
  /** `local`, `hub:<name>` or `terminal` */
  answeredBy: string | null;
  /** what was answered, in a few words */
  answer: string | null;
}
