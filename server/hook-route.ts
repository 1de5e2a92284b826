import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import type { Actions } from '../spoke/act/actions';
import type { Decision } from '../spoke/act/decisions';
import type { Driving } from '../spoke/drive/driving';
import { jsonOrNull } from '../spoke/model/json';
import { readBody, send } from './http-io';

// What Loom's action hook (server/bin/loom-action-hook.mjs) sends, Claude Code's hook input as it
// came. POST /hook/permission-request (PreToolUse too, for questions and plans) waits for a
// decision: 200 with the hook output Claude Code reads, or 204 for none (Claude Code's own dialog
// decides). POST /hook/stop answers 200 with a blocking reason (a prompt sent through Loom) or 204
// to let the session stop. Only the token in a header opens them: the hook's, never a browser's cookie.

export const PERMISSION_HOOK_PATH = '/hook/permission-request';
export const STOP_HOOK_PATH = '/hook/stop';
const MAX_BODY = 4 * 2 ** 20;

const PermissionUpdateSchema = z.looseObject({ type: z.string() });
const HookInput = z.looseObject({
  hook_event_name: z.enum(['PermissionRequest', 'PreToolUse']).optional(),
  session_id: z.string().regex(/^[\w.-]{1,128}$/),
  tool_name: z.string().min(1).max(256),
  tool_input: z.record(z.string(), z.unknown()),
  permission_suggestions: z.array(PermissionUpdateSchema).optional(),
  agent_id: z.string().max(256).optional(),
  cwd: z.string().max(4096).optional(),
  permission_mode: z.string().max(64).optional(),
});

export async function permissionHook(actions: Actions, req: IncomingMessage, res: ServerResponse, log: (message: string) => void): Promise<void> {
  const body = await readBody(req, MAX_BODY);
  const parsed = HookInput.safeParse(body === null ? null : jsonOrNull(body));
  if (!parsed.success) {
    log(`a PermissionRequest hook sent input Loom cannot read (${parsed.error.issues[0]?.message ?? 'too large'}); Claude Code's dialog decides`);
    return send(res, 400, 'text/plain; charset=utf-8', 'Bad request: not a PermissionRequest hook input.\n');
  }
  // the hook going away (Claude Code killed it) closes the request
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const decision = await actions.hookAsks(parsed.data, gone.signal);
  if (res.destroyed) return;
  if (!decision) return void res.writeHead(204).end();
  send(res, 200, 'application/json', JSON.stringify(hookOutput(parsed.data.hook_event_name ?? 'PermissionRequest', decision)));
}

/** The decision in the words of the hook that asked: PreToolUse has its own (and no permission updates). */
function hookOutput(event: 'PermissionRequest' | 'PreToolUse', decision: Decision): object {
  if (event === 'PermissionRequest') return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  const answer =
    decision.behavior === 'allow'
      ? { permissionDecision: 'allow', ...(decision.updatedInput && { updatedInput: decision.updatedInput }) }
      : { permissionDecision: 'deny', permissionDecisionReason: decision.message ?? 'Denied from Loom' };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', ...answer } };
}

const StopInput = z.looseObject({ session_id: z.string().regex(/^[\w.-]{1,128}$/), stop_hook_active: z.boolean().optional() });

export async function stopHook(driving: Driving, req: IncomingMessage, res: ServerResponse, log: (message: string) => void): Promise<void> {
  const body = await readBody(req, MAX_BODY);
  const parsed = StopInput.safeParse(body === null ? null : jsonOrNull(body));
  if (!parsed.success) {
    log(`a Stop hook sent input Loom cannot read (${parsed.error.issues[0]?.message ?? 'too large'}); the session stops as usual`);
    return send(res, 400, 'text/plain; charset=utf-8', 'Bad request: not a Stop hook input.\n');
  }
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const reason = await driving.stopHookAsks(parsed.data, gone.signal);
  if (res.destroyed) return;
  if (!reason) return void res.writeHead(204).end();
  send(res, 200, 'application/json', JSON.stringify({ decision: 'block', reason }));
}
