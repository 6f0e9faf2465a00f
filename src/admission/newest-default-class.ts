/**
 * How DefaultStorageClass and DefaultIngressClass (v1.27) choose among several classes marked
 * default: the newest by creationTimestamp, and of equally new ones the lowest name (upstream
 * sorts by CreationTimestamp.UnixNano descending, then name ascending).
 */
import type { KubeObject } from '../machinery/object.js';

function createdAt(o: KubeObject): number {
  const ts = o.metadata.creationTimestamp;
  const ms = typeof ts === 'string' ? Date.parse(ts) : NaN;
  return Number.isNaN(ms) ? -Infinity : ms;
}

export function newestDefaultClass(
  classes: readonly KubeObject[],
  isDefault: (c: KubeObject) => boolean,
): KubeObject | undefined {
  let best: KubeObject | undefined;
  for (const c of classes) {
    if (!isDefault(c)) continue;
    if (best === undefined) {
      best = c;
      continue;
    }
    const a = createdAt(c);
    const b = createdAt(best);
    if (a > b || (a === b && (c.metadata.name ?? '') < (best.metadata.name ?? ''))) best = c;
  }
  return best;
}
