import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type DocumentNode, print } from 'graphql';

// The dashboard's GraphQL documents, each from a queries.ts under web/src (where every one lives).

export const WEB_SRC = join(import.meta.dirname, '..', '..', 'web', 'src');

/** Every .ts/.tsx file under a folder (declaration files aside). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

export const queryModules = (): string[] => sourceFiles(WEB_SRC).filter((f) => f.endsWith('/queries.ts'));

export interface WebDocument {
  /** `chat/queries.ts SESSION_HEAD` */
  name: string;
  document: DocumentNode;
  /** as sent: the operation with the fragments it spreads */
  text: string;
  operation: 'query' | 'mutation' | 'subscription' | 'fragment';
}

export async function webDocuments(): Promise<WebDocument[]> {
  const documents: WebDocument[] = [];
  for (const file of queryModules()) {
    const module: Record<string, unknown> = await import(file);
    for (const [name, value] of Object.entries(module)) {
      const document = value as DocumentNode;
      const first = document.definitions[0];
      const operation = first.kind === 'OperationDefinition' ? first.operation : 'fragment';
      documents.push({ name: `${relative(WEB_SRC, file)} ${name}`, document, text: print(document), operation });
    }
  }
  return documents;
}
