import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

// Symbolic links under the projects root. A link to a transcript elsewhere in the tree is read
// like the file itself; a link that leaves the tree, points nowhere, or leads to a directory (an
// `ln -s ..` is a loop, an `ln -s /etc` a walk of the machine) is never followed.

/** The tree's own real path (the root itself may be a link, to a dotfiles checkout say). */
export function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * Why the link at `path` is not followed, or null when it may be read (or is no link at all):
 * only a link that ends at a file inside the tree may.
 */
export function refusedLink(treeRoot: string, path: string): string | null {
  try {
    if (!lstatSync(path).isSymbolicLink()) return null;
  } catch {
    return null; // gone already; whoever reads it finds out
  }
  let real: string;
  let directory: boolean;
  try {
    real = realpathSync(path);
    directory = statSync(real).isDirectory();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a link that loops' : 'it is a link that points nowhere';
  }
  const rel = relative(treeRoot, real);
  if (rel.split(sep)[0] === '..' || isAbsolute(rel)) return `it is a link out of the projects tree, to ${real}`;
  if (directory) return 'it is a link to a directory, and those are never followed (they can loop)';
  return null;
}
