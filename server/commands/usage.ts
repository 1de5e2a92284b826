import { VERSION } from '../../spoke/version';
import { DEFAULT_PORT } from '../kernel-defaults';

// What `loom --help` prints, and each subcommand's synopsis from it for a refusal's one line.

export const USAGE = `loom ${VERSION}: every agent session on every machine, live

usage:
  loom up [--projects DIR] [--port N] [--state DIR] [--name HOST] [--demo | --no-demo]
          [--host ADDR] [--allow-host NAME]… [--limit depth|aliases|tokens|directives|cost=N]…
          [--answer-wait SECONDS] [--claude PATH] [--no-archive | --archive-cap SIZE] [--index-workers N]
      start the kernel on 127.0.0.1 (default port ${DEFAULT_PORT}) over Claude Code's transcripts
      (default ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects). With no transcripts there,
      or with --demo, it serves generated demo sessions that keep growing. --answer-wait: how long
      a permission prompt waits for an answer from the dashboard (default 570, at most 590).
      --claude: the Claude Code the sessions Loom starts run (default $LOOM_CLAUDE, else claude
      on PATH); they use its own login. Loom keeps a compressed copy of every transcript it reads
      (<state>/archive), so a session whose file Claude Code deletes stays; --archive-cap 4G (the
      default; none for no cap) drops the oldest copies past it, --no-archive keeps none.
      --index-workers: threads that index the first read besides the kernel's own (default none
      on one core, else one per core beyond the kernel's, at most two).
  loom status [--state DIR] [--json]
      ask the running kernel for its state
  loom url [--state DIR]
      print the link that opens the dashboard signed in
  loom token --rotate [--state DIR]
      make a new token and end every session opened with the old one
  loom hooks install | uninstall | status [--state DIR]
      add Loom's hooks to Claude Code's settings.json (live state: working, needs you, idle…;
      permission prompts answered from the dashboard), take them out again, or say whether they are there
  loom watch --blocked [--exec CMD] [--state DIR]
      print one JSON line per goal that newly needs you, on any host; with --exec, run CMD (through
      sh) for each with the line on stdin: a notifier, a webhook (docs/api.md has one)
  loom away on | off | status [--state DIR]
      say you are away from this machine: a subagent's permission prompt (which Claude Code shows
      only once Loom's hook returns) then waits for an answer from the dashboard or a phone
  loom run [--state DIR] -- claude [args…]
      start Claude Code so a resumed session stays one session in Loom (needs loom hooks install)
  loom hook <Event> [--state DIR]
      what the installed hook does: reads Claude Code's hook JSON on stdin, appends it to the
      state dir (the hook itself runs server/bin/loom-hook.sh directly, without Node)
  loom link <ssh-target> [--name ALIAS] [--trust trusted|directed|isolated] [--accept-new]
          [--start] [--command CMD] [--remote-state DIR] [--state DIR]
      link another machine's kernel over SSH (user@host:port or a ~/.ssh/config alias); its
      sessions join this dashboard as ALIAS:name. --command (how to run loom there: "loom" or an
      absolute path, then plain arguments) and --remote-state are kept in this machine's hosts.json
  loom unlink <name> [--state DIR]
      end a link and forget the host
  loom hosts [--state DIR] [--json]
      the linked hosts: status, round trip, trust
  loom --version
`;

/** A subcommand's synopsis on one line: its entries' first lines in USAGE, wrapped lines joined. */
export function usageOf(command: string): string {
  const lines = USAGE.split('\n');
  const synopses: string[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith(`  loom ${command} `) && line !== `  loom ${command}`) return;
    let synopsis = line.trim();
    for (let next = i + 1; lines[next]?.startsWith('          '); next++) synopsis += ` ${lines[next].trim()}`;
    synopses.push(synopsis);
  });
  return synopses.join(' | ');
}
