import type { LiveSpan } from '../../spoke/model/live';
import type { TimelineBar, TimelineDot, TimelineLane } from '../../spoke/model/source';
import { DEFAULT_LANES, MAX_LANES, MAX_NAMED_SESSIONS } from '../../spoke/timeline';
import { builder } from '../builder';
import { childId, parseSessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { parseTime } from '../time';
import { SessionRef } from './session';

// The timeline: a lane per session over a window of time, a bar per segment of its turns.

/** A lane part with the session it belongs to, for host-qualified turn ids. */
interface Part<T> {
  host: string;
  key: string;
  part: T;
}

const BarStatusEnum = builder.enumType('TimelineBarStatus', {
  values: {
    RUNNING: { value: 'running', description: 'the newest turn of its session, not ended, with a sign of life' },
    ENDED: { value: 'ended' },
    INTERRUPTED: { value: 'interrupted' },
    UNFINISHED: { value: 'unfinished', description: 'a turn that never ended and shows no sign of life: the bar ends at its last activity' },
  } as const,
});

const StripeKindEnum = builder.enumType('TimelineStripeKind', { values: ['PERMISSION', 'COMPACTING'] as const });

const BarRef = builder.objectRef<Part<TimelineBar>>('TimelineBar').implement({
  description: 'One segment of a turn: from one input to the next. RUNNING or UNFINISHED only for the last segment of a turn still open.',
  fields: (t) => ({
    turnId: t.id({ description: 'the Turn.id this segment belongs to', resolve: (b) => childId(b.host, b.key, b.part.turnId) }),
    turnIndex: t.int({ resolve: (b) => b.part.turnIndex }),
    segmentIndex: t.int({ resolve: (b) => b.part.segmentIndex }),
    t: t.field({ type: 'DateTime', resolve: (b) => b.part.t }),
    end: t.field({ type: 'DateTime', description: 'the last activity of the segment (so far, when RUNNING)', resolve: (b) => b.part.end }),
    status: t.field({ type: BarStatusEnum, resolve: (b) => b.part.status }),
    triggerText: t.string({ nullable: true, description: "the first line of the turn's trigger (its promptLine)", resolve: (b) => b.part.trigger }),
    inputText: t.string({ nullable: true, description: 'the first line of the prompt that opened this segment', resolve: (b) => b.part.input }),
  }),
});

const SpanRef = builder.objectRef<{ t: number; end: number }>('TimelineSpan').implement({
  description: 'A span of time: where the model had stopped inside a turn (an IDLE atom).',
  fields: (t) => ({
    t: t.field({ type: 'DateTime', resolve: (s) => s.t }),
    end: t.field({ type: 'DateTime', resolve: (s) => s.end }),
  }),
});

const TriggerRef = builder.objectRef<Part<TimelineDot>>('TimelineTrigger').implement({
  description: "A turn's trigger: the prompt that opened it.",
  fields: (t) => ({
    turnId: t.id({ resolve: (d) => childId(d.host, d.key, d.part.turnId) }),
    t: t.field({ type: 'DateTime', resolve: (d) => d.part.t }),
    text: t.string({ nullable: true, description: "the prompt's first line", resolve: (d) => d.part.text }),
  }),
});

const StripeRef = builder.objectRef<LiveSpan>('TimelineStripe').implement({
  description:
    'A span the hooks saw the session in PERMISSION or COMPACTING. It ends at the next state the hooks report, or at the first transcript line after it; end is null while it lasts.',
  fields: (t) => ({
    kind: t.field({ type: StripeKindEnum, resolve: (s) => s.kind }),
    t: t.field({ type: 'DateTime', resolve: (s) => s.t }),
    end: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.end }),
  }),
});

const LaneRef = builder.objectRef<TimelineLane>('TimelineLane').implement({
  description: 'One top-level session over the window: what of it meets [from, to].',
  fields: (t) => ({
    session: t.field({ type: SessionRef, resolve: (l) => l.session }),
    bars: t.field({ type: [BarRef], resolve: (l) => l.bars.map((part) => ({ host: l.session.host, key: l.session.key, part })) }),
    idle: t.field({ type: [SpanRef], resolve: (l) => l.idle }),
    triggers: t.field({ type: [TriggerRef], resolve: (l) => l.triggers.map((part) => ({ host: l.session.host, key: l.session.key, part })) }),
    stripes: t.field({ type: [StripeRef], resolve: (l) => l.stripes }),
  }),
});

builder.queryField('timeline', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'timeline' }),
    type: [LaneRef],
    description:
      `One lane per top-level session active in [from, to], most recently active first. Each lane reads its session's turns, ` +
      `which wakes a sleeping session (only 64 stay awake by default), so lanes is ${DEFAULT_LANES} by default and at most ${MAX_LANES}.`,
    args: {
      from: t.arg.string({ required: true, description: 'RFC 3339: the start of the window' }),
      to: t.arg.string({ required: true, description: 'RFC 3339: the end of the window, after from' }),
      lanes: t.arg.int({ defaultValue: DEFAULT_LANES, description: `at most this many lanes, 1…${MAX_LANES}` }),
      sessions: t.arg.idList({ description: `only these sessions (at most ${MAX_NAMED_SESSIONS}), as a filtered client shows them` }),
    },
    resolve: (_, args, { source }) =>
      source.timeline({
        from: parseTime('from', args.from)!,
        to: parseTime('to', args.to)!,
        lanes: args.lanes ?? DEFAULT_LANES,
        sessions: args.sessions?.map((id) => parseSessionId(String(id))) ?? null,
      }),
  }),
);
