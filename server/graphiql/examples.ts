// What GraphiQL opens on: one tab per example, titled by its operation's name. GraphiQL keeps the
// tabs a person edited in the browser's storage, so these show on a first visit (or after its
// storage is cleared). test/unit/graphiql-examples.test.ts validates each against the schema.

/** Each a document of one named operation: GraphiQL titles its tab with that name. */
export const GRAPHIQL_EXAMPLES: readonly string[] = [
  `# Sessions of every host, most recently active first:
# what each is doing now (from Claude Code's hooks) and
# its asks. Run with Ctrl-Enter. Ctrl-Space completes a
# field; the Docs pane (top left) lists the whole API.
query Sessions {
  sessions(first: 10) {
    totalCount
    nodes {
      id
      name
      host { name }
      dir
      updatedAt
      live { state detail since }
      goals { title status outcome block { kind text } }
    }
  }
}
`,
  `# Live: each session as it appears, changes (new
# activity, a new name) or goes away. Run it, then work
# in Claude Code: changes arrive until you stop it.
subscription SessionChanges {
  sessionsChanged {
    kind
    sessionId
    session { name updatedAt live { state } }
  }
}
`,
  `# The feed's "needs you" column: asks blocked on a
# permission, a question, a plan or an error. Answer a
# request by its id with allowTool, denyTool,
# answerQuestion or approvePlan.
query NeedsYou {
  feed {
    blocked {
      id
      title
      updatedAt
      session { id name host { name } }
      block { kind text request { id kind toolName } }
    }
  }
}
`,
];
