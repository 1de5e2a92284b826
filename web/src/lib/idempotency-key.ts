/** A key for one action a person takes: the kernel does it once however often the request is sent with it. */
export function idempotencyKey(): string {
  // randomUUID exists only in secure contexts; a kernel reached over plain http on a LAN is not one
  return crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
