export function FeedPane() {
  return <div className="empty">feed</div>;
}
