// Events often come in bursts: a host that catches a stream up sends one per session it changed
// while it was away. Whatever each of them would redo (a sort of the whole list) runs once for
// the burst instead, a moment after its first event.

const BURST_MS = 30;

/** `run`, at most once per BURST_MS however often the returned function is called. */
export function oncePerBurst(run: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      run();
    }, BURST_MS);
  };
}
