/** Test support: polling for an eventual condition with a generous deadline (never a timed assertion). */

/**
 * Polls `f` until it returns a value other than undefined/false, and returns it. Errors thrown by
 * `f` count as "not yet" (the last one is named if the deadline passes).
 */
export async function waitFor<T>(
  what: string,
  f: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await f();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
