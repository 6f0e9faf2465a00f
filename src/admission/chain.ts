/**
 * Several admission plugins as one callback: each runs in turn, in the order given (upstream's
 * plugin order), and the first to throw denies the request.
 */
export function chainAdmission<A>(
  plugins: readonly ((attrs: A) => Promise<void>)[],
): (attrs: A) => Promise<void> {
  return async (attrs) => {
    for (const plugin of plugins) await plugin(attrs);
  };
}
