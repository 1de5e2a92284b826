import DataLoader from 'dataloader';
import type { Source } from '../spoke/model/source';
import type { ContentBlock } from '../spoke/model/types';
import type { AtomKey } from './builder';
import { childId } from './ids';

/** One per request: every atom whose content a query asks for is loaded in one pass per session. */
export function contentLoader(source: Source): DataLoader<AtomKey, ContentBlock[], string> {
  return new DataLoader<AtomKey, ContentBlock[], string>(
    async (keys) => {
      const bySession = new Map<string, number[]>();
      keys.forEach((k, i) => {
        const id = `${k.host}:${k.key}`;
        const list = bySession.get(id);
        if (list) list.push(i);
        else bySession.set(id, [i]);
      });
      const out: (ContentBlock[] | Error)[] = new Array(keys.length);
      await Promise.all(
        [...bySession.values()].map(async (indexes) => {
          const { host, key } = keys[indexes[0]];
          try {
            const contents = await source.content(
              host,
              key,
              indexes.map((i) => keys[i].atom),
            );
            indexes.forEach((i, j) => {
              out[i] = contents[j];
            });
          } catch (err) {
            for (const i of indexes) out[i] = err as Error;
          }
        }),
      );
      return out;
    },
    { cacheKeyFn: (k) => childId(k.host, k.key, k.atom.uuid) },
  );
}
