import { memo, type ReactNode, useState } from 'react';
import { withoutAnsi } from '../lib/ansi';
import { when } from '../lib/when';
import { CompactionDivider, IdleDivider, NewChainDivider } from './Divider';
import { heldText, mapHeld } from './held-text';
import { sentThroughLoom, unwrapLoomPrompt } from './loom-prompt';
import { Picture } from './Picture';
import { Prose } from './Prose';
import { type Row, type RowBlock, speakerOf } from './rows';
import { Thinking } from './Thinking';
import { ToolCall } from './ToolCall';
import type { ChatAtom } from './types';

interface Props {
  row: Row;
  /** the id of a search hit's atom this row shows: the fold that holds it (a tool call, thinking) opens */
  hit?: string;
}

/** One row of the chat: a divider, or a message with a widget per content block. */
export const AtomRow = memo(function AtomRow({ row, hit }: Props) {
  if (row.kind === 'compaction') return <CompactionDivider atom={row.atom} />;
  if (row.kind === 'idle') return <IdleDivider atom={row.atom} />;
  if (row.kind === 'new-chain') return <NewChainDivider atom={row.atom} />;
  const speaker = speakerOf(row.atom);
  const viaLoom = sentThroughLoom(row.atom);
  const blocks = isSlashCommand(row.atom) ? (
    <code className="slash-command">{row.atom.promptLine}</code>
  ) : (
    // keyed by the block's place in its atom: a row's blocks change when an older page brings a result's call
    row.blocks.map((b) => <BlockView key={b.at.index} item={b} viaLoom={viaLoom} hit={hit} />)
  );
  return (
    <div className={`msg msg-${speaker}`}>
      {row.showsSpeaker && <Speaker atom={row.atom} />}
      {speaker === 'system' ? <Injected atom={row.atom}>{blocks}</Injected> : blocks}
      {viaLoom && (
        <div className="msg-via" title="Delivered to the terminal session by Loom's Stop hook at the end of a turn">
          sent from Loom
        </div>
      )}
    </div>
  );
}, sameRow);

function BlockView({ item, viaLoom, hit }: { item: RowBlock; viaLoom: boolean; hit: string | undefined }) {
  const { block, at } = item;
  const holdsHit = hit !== undefined && (at.atomId === hit || item.result?.at.atomId === hit);
  switch (block.__typename) {
    case 'TextBlock': {
      const held = heldText(block.text, block.length, at, 'TextBlock');
      // a prompt Loom delivered through a Stop hook: its text as the person sent it, without the hook's wrapper
      return <Prose held={viaLoom ? mapHeld(held, unwrapLoomPrompt) : held} />;
    }
    case 'ThinkingBlock':
      return <Thinking held={heldText(block.thinking, block.length, at, 'ThinkingBlock')} opened={holdsHit} />;
    case 'ToolUseBlock':
      return <ToolCall call={{ block, at }} result={item.result} opened={holdsHit} />;
    case 'ToolResultBlock':
      return <ToolCall call={null} result={{ block, at }} opened={holdsHit} />;
    case 'ImageBlock':
      return <Picture mediaType={block.mediaType} bytes={block.bytes} at={at} />;
    case 'OpaqueBlock':
      return <div className="block-note">[{block.blockType} block]</div>;
  }
}

/** a slash command is written as <command-name> markup; its prompt line says it as it was typed */
function isSlashCommand(atom: ChatAtom): boolean {
  const first = atom.content[0];
  return atom.promptLine !== null && first?.__typename === 'TextBlock' && first.text.trimStart().startsWith('<command-');
}

const SPEAKER_LABELS: Record<string, string> = { claude: 'claude', human: 'you', sdk: 'sdk', system: 'system', peer: 'peer', tool: 'tool output' };

function Speaker({ atom }: { atom: ChatAtom }) {
  const speaker = speakerOf(atom);
  return (
    <div className="speaker" data-author={atom.author?.kind}>
      {SPEAKER_LABELS[speaker] ?? speaker}
      {atom.author?.peer && <span className="speaker-detail"> {atom.author.peer}</span>}
      {atom.model && <span className="speaker-detail"> {atom.model}</span>}
      {/* a date unless it is today's: an old session's times alone say nothing */}
      <time className="speaker-detail" dateTime={atom.t} title={new Date(atom.t).toLocaleString()}>
        {' '}
        {when(atom.t)}
      </time>
    </div>
  );
}

/** Text the harness wrote into the conversation (summaries, reminders, command output): folded, drawn once opened. */
function Injected({ atom, children }: { atom: ChatAtom; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const first = atom.content.find((b) => b.__typename === 'TextBlock');
  const line = first?.__typename === 'TextBlock' ? withoutAnsi(first.text).trim().split('\n')[0].slice(0, 140) : 'injected by the harness';
  return (
    <details className="injected" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{line}</summary>
      {open && children}
    </details>
  );
}

/** Rows are rebuilt on every change; a row redraws only when what it shows changed. */
function sameRow(a: Props, b: Props): boolean {
  const x = a.row;
  const y = b.row;
  return (
    a.hit === b.hit &&
    x.atom === y.atom &&
    x.kind === y.kind &&
    x.showsSpeaker === y.showsSpeaker &&
    x.blocks.length === y.blocks.length &&
    x.blocks.every((item, i) => item.block === y.blocks[i].block && item.result?.block === y.blocks[i].result?.block)
  );
}
