/** Pod create warnings (upstream pod strategy WarningsOnCreate and a few of podutil.GetWarningsForPod). */
import { isDNS1123Label } from '../../../machinery/validation/names.js';
import type { KubeObject } from '../../../machinery/object.js';
import { obj } from '../../../apis/core/v1/access.js';
import { podSpecWarnings } from '../../../apis/core/v1/pod-warnings.js';

export function podWarnings(pod: KubeObject): string[] {
  const warnings: string[] = [];
  const name = pod.metadata.name ?? '';
  const msgs = isDNS1123Label(name);
  if (msgs.length > 0) {
    warnings.push(
      `metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`,
    );
  }
  warnings.push(...podSpecWarnings('', obj(pod, 'spec'), obj(pod, 'metadata')));
  return warnings;
}
