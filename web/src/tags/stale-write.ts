import { isConflict } from '../lib/gql';
import { reloadViews } from './tags-store';

/**
 * A whole write (the tags' order, a saved view) made from the host's tags and views as this page
 * held them. When the host refuses it because they moved on meanwhile (CONFLICT), they are read
 * again and the refusal says so in one sentence, with what to redo: the edit is never dropped
 * without a word, and never applied over a change it did not see.
 */
export async function wholeWrite<T>(host: string, words: { what: string; redo: string }, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isConflict(err)) throw err;
    await reloadViews(host).catch(() => undefined);
    throw new Error(`The tags and views on ${host} changed meanwhile, so ${words.what} was not saved: they are shown as they are now, ${words.redo}.`);
  }
}
