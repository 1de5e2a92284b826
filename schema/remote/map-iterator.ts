// An async iterator transformed value by value without a generator: an async generator busy
// awaiting its source cannot be returned until that source yields, so a client that unsubscribes
// from a quiet remote stream would keep it open. This one passes return() straight through.

export function mapIterator<A, B>(source: AsyncIterator<A>, map: (value: A) => B, mapError: (err: unknown) => unknown = (e) => e): AsyncIterableIterator<B> {
  return {
    async next() {
      try {
        const step = await source.next();
        return step.done ? { done: true, value: undefined } : { done: false, value: map(step.value) };
      } catch (err) {
        throw mapError(err);
      }
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
