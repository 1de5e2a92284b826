// Tags and views, as a kernel keeps them for its own sessions (spoke/views/views-store.ts).

/** A named, coloured set of sessions; a session may carry several. */
export interface Tag {
  /** stable across renames */
  id: string;
  name: string;
  /** `#rrggbb` */
  color: string;
  /** session keys, in the order they joined */
  members: string[];
}

/** What a saved view selects and how it orders what it selects. */
export interface Lens {
  /** text the session list is filtered by, as the dashboard's filter field takes it */
  filter: string;
  /** tag ids: sessions carrying any of them; none for every session */
  tagIds: string[];
  /** also the sessions that carry no tag (with tagIds: those and the tagged ones) */
  untagged: boolean;
  order: 'RECENT' | 'NAME' | 'PROJECT';
}

/** A saved lens with a name. */
export interface View extends Lens {
  id: string;
  name: string;
}

export interface Views {
  /** the store's write sequence: every accepted write makes it one more */
  seq: number;
  tags: Tag[];
  /** the views, in the order saved */
  views: View[];
  /** names given in Loom, by session key (the transcript is never written) */
  sessionNames: Record<string, string>;
}
