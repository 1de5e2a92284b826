/** A JSON text's value, or null when it is not JSON: the caller's schema then refuses it with the rest. */
export function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
