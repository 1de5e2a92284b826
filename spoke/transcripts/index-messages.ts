import type { IndexedProject, ProjectWork } from './project-index';

// What the index workers and the kernel's thread say to each other during the first index. A
// worker indexes one project at a time (project-index.ts) and posts what it made of it whole.

export type ToIndexer = { kind: 'project'; job: number; work: ProjectWork };

export type FromIndexer =
  /** started: projects may be sent; `scannerProblem`: why this worker parses every line whole (LINE_SCANNER_PROBLEM) */
  | { kind: 'ready'; scannerProblem: string | null }
  | { kind: 'indexed'; job: number; project: IndexedProject }
  /** the project could not be indexed here (the kernel's thread reads it, and says why if it fails there too) */
  | { kind: 'failed'; job: number; message: string };
