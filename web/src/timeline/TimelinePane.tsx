export function TimelinePane() {
  return <div className="empty">timeline</div>;
}
