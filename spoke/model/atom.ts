import type { AtomMeta, AtomType } from './types';

/** An atom with nothing learned about it yet: the one place that lists every field's default. */
export function bareAtom(uuid: string, type: AtomType, t: number, place: Pick<AtomMeta, 'fsid' | 'file' | 'offset' | 'length'>): AtomMeta {
  return {
    uuid,
    sequence: 0,
    type,
    subtype: null,
    t,
    author: null,
    model: null,
    stopReason: null,
    toolUses: null,
    toolResults: null,
    toolNames: null,
    promptLine: null,
    interrupt: false,
    terminalNote: false,
    usage: null,
    goalTools: null,
    fsid: place.fsid,
    file: place.file,
    offset: place.offset,
    length: place.length,
  };
}
