/** Prints an error a person can act on and exits 1. */
export const fail = (message: string): never => {
  process.stderr.write(`loom: ${message}\n`);
  process.exit(1);
};
