import { describe, expect, it } from 'vitest';
import { asRequester, FairQueue } from '../../federation/fair-queue';

// The hub's places among a host's operations in flight, taken in turns by its callers.

const late = () => new Error('late');
const soon = () => performance.now() + 5_000;

describe('a fair queue', () => {
  it('gives a caller with one waiting operation the next free place, ahead of one with many waiting', async () => {
    const queue = new FairQueue(1);
    const order: string[] = [];
    /** waits for a place as `who`, notes when it got it, and hands it on a turn later */
    const take = (who: object, name: string) =>
      asRequester(who, () => queue.acquire(soon(), late)).then(async (release) => {
        order.push(name);
        await new Promise((r) => setTimeout(r, 1));
        release();
      });
    const held = await queue.acquire(soon(), late);
    const flooder = {};
    const waits = Array.from({ length: 5 }, (_, i) => take(flooder, `flood ${i}`));
    waits.push(take({}, 'honest'));
    held();
    await Promise.all(waits);
    expect(order).toEqual(['flood 0', 'honest', 'flood 1', 'flood 2', 'flood 3', 'flood 4']);
  });

  it('refuses a wait past its deadline and hands the place on', async () => {
    const queue = new FairQueue(1);
    const held = await queue.acquire(soon(), late);
    await expect(queue.acquire(performance.now() + 20, late)).rejects.toThrow('late');
    held();
    const next = await queue.acquire(soon(), late);
    next();
  });

  it('hands on, unused, a place that comes free too close to the deadline to be of use', async () => {
    const queue = new FairQueue(1);
    const held = await queue.acquire(soon(), late);
    // free 40 ms before the deadline: too late to ask the host and hear back
    const waiting = queue.acquire(performance.now() + 80, late);
    setTimeout(held, 40);
    await expect(waiting).rejects.toThrow('late');
    const next = await queue.acquire(soon(), late);
    next();
  });
});
