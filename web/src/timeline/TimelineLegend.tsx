/** What the colours mean. */
export function TimelineLegend() {
  return (
    <div className="tl-legend" role="note" aria-label="Legend">
      <span>
        <i className="tl-key tl-bar-running" /> running
      </span>
      <span>
        <i className="tl-key tl-bar-ended" /> ended
      </span>
      <span>
        <i className="tl-key tl-bar-interrupted" /> interrupted
      </span>
      <span>
        <i className="tl-key tl-bar-unfinished" /> unfinished
      </span>
      <span>
        <i className="tl-key tl-key-idle" /> idle
      </span>
      <span>
        <i className="tl-key tl-stripe-permission" /> waiting for permission
      </span>
      <span>
        <i className="tl-key tl-stripe-compacting" /> compacting
      </span>
      <span>
        <i className="tl-key tl-key-dot" /> prompt
      </span>
    </div>
  );
}
