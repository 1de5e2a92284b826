import { TOKEN_HEADER } from '../security/access';
import { readToken } from '../security/token';
import { type KernelClaim, readClaim } from '../state-dir';
import { fail } from './fail';

// The CLI's way to the running kernel of a state dir: one GraphQL operation with the token.

/** The claim of the kernel running on a state dir; refuses when none runs. */
export const runningKernel = (stateDir: string): KernelClaim => readClaim(stateDir) ?? fail(`no kernel is running on ${stateDir}; start one with: loom up`);

export async function askKernel<T>(stateDir: string, query: string, variables: Record<string, unknown> = {}): Promise<{ data: T; claim: KernelClaim }> {
  const claim = runningKernel(stateDir);
  let token: string;
  try {
    token = readToken(stateDir);
  } catch (err) {
    return fail(`cannot read the token in ${stateDir}: ${(err as Error).message}`);
  }
  const res = await fetch(new URL('graphql', claim.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
    body: JSON.stringify({ query, variables }),
  }).catch((err: Error) => fail(`the kernel (pid ${claim.pid}) did not answer on port ${claim.port}: ${err.message}`));
  const body = (await res.json().catch(() => null)) as { data?: T; errors?: { message: string }[] } | null;
  if (!body?.data) return fail(body?.errors?.[0]?.message ?? `the kernel refused the request (${res.status})`);
  return { data: body.data, claim };
}
