import { expect, it } from 'vitest';
import { MergedStream } from '../../schema/remote/merge-iterators';

/** A source with endless events, counting how often it was asked for one. */
function endless() {
  const source = {
    asked: 0,
    async next() {
      return { done: false as const, value: ++source.asked };
    },
  };
  return source;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

it('asks each source for its next event only once its last one was read, so a slow reader holds one per source', async () => {
  const merged = new MergedStream<number>();
  const a = endless();
  const b = endless();
  merged.add(a);
  merged.add(b);
  await settle();
  expect([a.asked, b.asked]).toEqual([1, 1]);
  expect(await merged.next()).toEqual({ value: 1, done: false });
  await settle();
  expect(a.asked + b.asked).toBe(3);
  await merged.return();
  expect(await merged.next()).toEqual({ value: undefined, done: true });
});
