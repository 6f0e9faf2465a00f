/**
 * Nesting depth of decoded request bodies. Go's encoding/json stops at 10000 levels; here the bound
 * is 1000, because V8's JSON.stringify and the recursive patch/decode code exhaust the stack a few
 * thousand levels deep. No Kubernetes object comes near either bound.
 */

/** Maximum nesting depth of objects and arrays in a request body. */
export const maxJsonDepth = 1000;

/**
 * True when `value` nests objects/arrays deeper than `max` (a cyclic value, as YAML aliases can
 * produce, counts as too deep). Iterative, so it cannot exhaust the stack itself.
 */
export function exceedsJsonDepth(value: unknown, max = maxJsonDepth): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const v = top.value;
    if (typeof v !== 'object' || v === null) continue;
    const depth = top.depth + 1;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
    }
  }
  return false;
}
