import { DEFAULT_PORT } from './kernel-defaults';
import { VERSION } from '../spoke/version';
import { fail } from './commands/fail';

// The `loom` command. Each subcommand loads only what it needs: the server stack takes seconds
// to load and `loom status` should answer at once.

const USAGE = `loom ${VERSION}: every agent session on every machine, live

usage:
  loom up [--projects DIR] [--port N] [--state DIR] [--name HOST] [--demo | --no-demo]
          [--host ADDR] [--allow-host NAME]… [--limit depth|aliases|tokens|directives|cost=N]…
      start the kernel on 127.0.0.1 (default port ${DEFAULT_PORT}) over Claude Code's transcripts
      (default ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects). With no transcripts there,
      or with --demo, it serves generated demo sessions that keep growing.
  loom status [--state DIR] [--json]
      ask the running kernel for its state
  loom url [--state DIR]
      print the link that opens the dashboard signed in
  loom token --rotate [--state DIR]
      make a new token and end every session opened with the old one
  loom hooks install | uninstall | status [--state DIR]
      add Loom's hook to Claude Code's settings.json (live state: working, needs you, idle…),
      take it out again, or say whether it is there
  loom run [--state DIR] -- claude [args…]
      start Claude Code so a resumed session stays one session in Loom (needs loom hooks install)
  loom hook <Event> [--state DIR]
      what the installed hook does: reads Claude Code's hook JSON on stdin, appends it to the
      state dir (the hook itself runs server/bin/loom-hook.sh directly, without Node)
  loom link <ssh-target> [--name ALIAS] [--trust trusted|directed|isolated] [--accept-new]
          [--start] [--command CMD] [--remote-state DIR] [--state DIR]
      link another machine's kernel over SSH (user@host:port or a ~/.ssh/config alias); its
      sessions join this dashboard as ALIAS:name
  loom unlink <name> [--state DIR]
      end a link and forget the host
  loom hosts [--state DIR] [--json]
      the linked hosts: status, round trip, trust
  loom --version
`;

const [command, ...rest] = process.argv.slice(2);
if (command === 'up') {
  // Before graphql-js loads: outside production it checks each failed type test for a second copy
  // of itself, a tenth of a hub's work on a merged list. Only the kernel: `loom run` passes its
  // environment on to Claude Code and what it runs.
  process.env.NODE_ENV ??= 'production';
  await (await import('./commands/up')).up(rest);
} else if (command === 'status') await (await import('./commands/status')).status(rest);
else if (command === 'url') await (await import('./commands/url')).url(rest);
else if (command === 'token') await (await import('./commands/token')).token(rest);
else if (command === 'hooks') await (await import('./commands/hooks')).hooks(rest);
else if (command === 'hook') await (await import('./commands/hook')).hook(rest);
else if (command === 'link') await (await import('./commands/link')).link(rest);
else if (command === 'unlink') await (await import('./commands/link')).unlink(rest);
else if (command === 'hosts') await (await import('./commands/link')).hosts(rest);
else if (command === 'run') await (await import('./commands/run')).run(rest);
else if (command === '--version' || command === '-v') process.stdout.write(`${VERSION}\n`);
else if (!command || command === 'help' || command === '--help' || command === '-h') process.stdout.write(USAGE);
else fail(`unknown command "${command}"\n\n${USAGE}`);
