import { graphql } from '../lib/graphql';

// The GraphQL documents of acting on sessions: the composer under the chat (send, resume,
// interrupt, the sent prompts it follows) and the "New session" dialog.

export const SENT_PROMPT = graphql(`
  fragment SentPromptFields on SentPrompt { id sessionId text state sentAt sentBy atomId reason }
`);

/** The session's sent prompts now, then again each time one is sent or settles. */
export const SENT_PROMPTS_CHANGED = graphql(
  `
  subscription SentPromptsChanged($id: ID!) { sentPromptsChanged(sessionId: $id) { ...SentPromptFields } }
`,
  [SENT_PROMPT],
);

export const SEND_PROMPT = graphql(
  `
  mutation SendPrompt($id: ID!, $text: String!, $key: String!) { sendPrompt(sessionId: $id, text: $text, idempotencyKey: $key) { ...SentPromptFields } }
`,
  [SENT_PROMPT],
);

export const RESUME_SESSION = graphql(
  `
  mutation ResumeSession($id: ID!, $prompt: String!, $key: String!) {
    resumeSession(sessionId: $id, prompt: $prompt, idempotencyKey: $key) { ...SentPromptFields }
  }
`,
  [SENT_PROMPT],
);

export const INTERRUPT = graphql(`
  mutation Interrupt($id: ID!, $key: String!) { interrupt(sessionId: $id, idempotencyKey: $key) }
`);

export const PROJECT_DIRECTORIES = graphql(`
  query ProjectDirectories($host: String) { projectDirectories(host: $host, first: 30) { dir sessionCount lastActiveAt } }
`);

export const START_SESSION = graphql(`
  mutation StartSession($host: String, $dir: String!, $prompt: String!, $model: String, $mode: StartPermissionMode, $key: String!) {
    startSession(host: $host, dir: $dir, prompt: $prompt, model: $model, permissionMode: $mode, idempotencyKey: $key) {
      sessionId
      session { id }
    }
  }
`);
