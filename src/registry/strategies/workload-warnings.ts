/** Warnings the workload strategies share (upstream strategies' WarningsOnCreate). */
import type { KubeObject } from '../../machinery/object.js';
import { isDNS1123Label } from '../../machinery/validation/names.js';

/** Names that become pod names and hostnames should be DNS labels (upstream's warning text). */
export function podNameWarnings(obj: KubeObject): string[] {
  const msgs = isDNS1123Label(obj.metadata.name ?? '');
  if (msgs.length === 0) return [];
  return [
    `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`,
  ];
}
