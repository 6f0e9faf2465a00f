/**
 * The health of a dual-stack proxy (upstream shares one healthz server between the IPv4 and IPv6
 * proxiers): healthy while both are, last updated when the later of them was.
 */
import type { Proxier } from './proxier.js';

type Health = ReturnType<Proxier['health']>;

export function combinedHealth(proxiers: readonly Pick<Proxier, 'health'>[]): Pick<Proxier, 'health'> {
  return {
    health(): Health {
      const all = proxiers.map((p) => p.health());
      const updated = all.map((h) => h.lastUpdated).filter((t): t is number => t !== undefined);
      return {
        healthy: all.every((h) => h.healthy),
        lastUpdated: updated.length > 0 ? Math.max(...updated) : undefined,
        now: Math.max(...all.map((h) => h.now)),
      };
    },
  };
}
