/** Pod create warnings (upstream pod strategy WarningsOnCreate and a few of podutil.GetWarningsForPod). */
import { isDNS1123Label } from '../../../machinery/validation/names.js';
import type { KubeObject } from '../../../machinery/object.js';
import { indexedObjs, num, obj, strMap } from '../../../apis/core/v1/access.js';

const deprecatedNodeLabels: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region':
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone':
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type':
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

export function podWarnings(pod: KubeObject): string[] {
  const warnings: string[] = [];
  const name = pod.metadata.name ?? '';
  const msgs = isDNS1123Label(name);
  if (msgs.length > 0) {
    warnings.push(
      `metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`,
    );
  }
  const spec = obj(pod, 'spec');
  for (const key of Object.keys(strMap(spec, 'nodeSelector') ?? {})) {
    const msg = deprecatedNodeLabels[key];
    if (msg !== undefined) warnings.push(`spec.nodeSelector[${key}]: ${msg}`);
  }
  for (const [i, v] of indexedObjs(spec, 'volumes')) {
    if (obj(v, 'gitRepo') !== undefined) warnings.push(`spec.volumes[${i}].gitRepo: deprecated in v1.11`);
  }
  const grace = num(spec, 'terminationGracePeriodSeconds');
  if (grace !== undefined && grace < 0) {
    warnings.push(
      'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    );
  }
  return warnings;
}
