/**
 * Brings a store written with nanokube's first key layout (/registry/<group>/<resource>/...) to
 * kube-apiserver's (registry/generic/keys.ts) when a server opens it: every built-in resource
 * whose prefix changed moves, through encryption at rest, and then history is compacted to the
 * present, so a client holding an older resourceVersion lists again (410 Gone) instead of
 * watching the move. Runs before anything else reads the store; a crash half-way is finished by
 * the next start (the layout is recorded only once every key has moved).
 */
import type { RegistryResource } from '../../registry/resource.js';
import { firstLayoutPrefix, resourcePrefix } from '../../registry/generic/keys.js';
import { moveKeys } from '../../storage/kv/relayout.js';
import type { KeyMove } from '../../storage/kv/relayout.js';
import type { KvStore } from '../../storage/kv/types.js';

export const currentKeyLayout = 2;

/** The prefixes that differ between the two layouts, one move per stored resource. */
export function firstLayoutMoves(resources: readonly RegistryResource[]): KeyMove[] {
  const moves = new Map<string, KeyMove>();
  for (const r of resources) {
    const from = firstLayoutPrefix(r.info);
    const to = resourcePrefix(r.info);
    if (from !== to) moves.set(from, { from, to });
  }
  return [...moves.values()];
}

/**
 * Moves the keys when `kv` records the first layout; answers how many moved (0 when the store
 * was in kube-apiserver's layout already).
 */
export async function upgradeKeyLayout(
  kv: KvStore,
  resources: readonly RegistryResource[],
  signal?: AbortSignal,
): Promise<number> {
  const layout = kv.keyLayout?.() ?? currentKeyLayout;
  if (layout >= currentKeyLayout) return 0;
  const moved = await moveKeys(kv, firstLayoutMoves(resources), signal !== undefined ? { signal } : {});
  if (moved > 0) await kv.compact(await kv.currentRevision());
  await kv.setKeyLayout?.(currentKeyLayout);
  return moved;
}
