// Posts each goal that needs you to a webhook (Slack, ntfy, Discord, your own):
//   loom watch --blocked | node blocked-webhook.mjs https://ntfy.sh/my-loom-topic
// One JSON line per blocked goal comes in on stdin (loom watch); one POST goes out per line.
import { createInterface } from 'node:readline';

const url = process.argv[2];
if (!url) {
  console.error('usage: loom watch --blocked | node blocked-webhook.mjs WEBHOOK_URL');
  process.exit(2);
}
for await (const line of createInterface({ input: process.stdin })) {
  const goal = JSON.parse(line);
  const text = `${goal.host}:${goal.session} needs you: ${goal.block?.text ?? goal.title}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, goal }),
  }).catch((err) => ({ ok: false, status: err.message }));
  if (!res.ok) console.error(`webhook refused ${goal.goalId}: ${res.status}`);
}
