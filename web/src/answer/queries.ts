import { graphql } from '../lib/graphql';

// What a blocked card needs to show a request and answer it.

export const REQUEST = graphql(`
  fragment Request on PermissionRequest {
    id kind toolName input canAlwaysAllow plan cwd agentId state
    questions { question header multiSelect options { label description } }
  }
`);

export const ALLOW_TOOL = graphql(`
  mutation AllowTool($id: ID!, $always: Boolean, $key: String!) { allowTool(requestId: $id, always: $always, idempotencyKey: $key) { id state } }
`);
export const DENY_TOOL = graphql(`
  mutation DenyTool($id: ID!, $message: String!, $key: String!) { denyTool(requestId: $id, message: $message, idempotencyKey: $key) { id state } }
`);
export const ANSWER_QUESTION = graphql(`
  mutation AnswerQuestion($id: ID!, $answers: [QuestionAnswerInput!]!, $key: String!) {
    answerQuestion(requestId: $id, answers: $answers, idempotencyKey: $key) { id state }
  }
`);
export const APPROVE_PLAN = graphql(`
  mutation ApprovePlan($id: ID!, $mode: PlanExitMode, $key: String!) { approvePlan(requestId: $id, mode: $mode, idempotencyKey: $key) { id state } }
`);
export const REJECT_PLAN = graphql(`
  mutation RejectPlan($id: ID!, $message: String!, $key: String!) { rejectPlan(requestId: $id, message: $message, idempotencyKey: $key) { id state } }
`);
export const AWAY = graphql(`query Away($host: String) { away(host: $host) { on since } }`);
export const SET_AWAY = graphql(`mutation SetAway($on: Boolean!, $host: String) { setAway(on: $on, host: $host) { on since } }`);
export const ACTIONS = graphql(`
  query Actions($host: String) { actions(host: $host, first: 50) { seq at actor action host sessionId summary result message } }
`);
