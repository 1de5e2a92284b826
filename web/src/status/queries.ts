import { graphql } from '../lib/graphql';

// The kernel's own state: how far its first index got (the banner), and what it is (settings).

export const INDEXING = graphql(`
  query Indexing { kernel { indexing { done filesDone filesTotal bytesDone bytesTotal } } }
`);

export const KERNEL_INFO = graphql(`
  query KernelInfo { kernel { version projectsRoot sessionCount startedAt host { name } } }
`);
