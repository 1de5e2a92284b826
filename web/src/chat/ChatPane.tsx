export function ChatPane({ sessionId }: { sessionId: string; turnId: string | null }) {
  return <div className="empty">{sessionId}</div>;
}
