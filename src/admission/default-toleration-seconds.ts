/**
 * DefaultTolerationSeconds (mutating, on by default in kube-apiserver v1.27): a pod that does not
 * already tolerate the `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable`
 * NoExecute taints gets tolerations for them with `tolerationSeconds: 300`, so the node lifecycle
 * controller evicts it five minutes after its node goes away rather than at once. A toleration
 * with an empty key or an empty effect counts as tolerating.
 */
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import type { JsonValue } from '../util/json.js';
import type { AdmissionPlugin } from './plugin.js';
import { createUpdate } from './plugin.js';

export interface PodAdmissionAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly resource: { readonly group: string; readonly resource: string };
  readonly subresource: string;
  readonly object: KubeObject;
}

const notReady = 'node.kubernetes.io/not-ready';
const unreachable = 'node.kubernetes.io/unreachable';
/** Upstream's --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds. */
const defaultSeconds = 300;

function tolerates(tolerations: readonly JsonValue[], key: string): boolean {
  return tolerations.some((t) => {
    if (!isJsonObject(t)) return false;
    const k = typeof t['key'] === 'string' ? t['key'] : '';
    const effect = typeof t['effect'] === 'string' ? t['effect'] : '';
    return (k === key || k === '') && (effect === 'NoExecute' || effect === '');
  });
}

export function defaultTolerationSeconds(): (a: PodAdmissionAttributes) => Promise<void> {
  return (a) => {
    if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '')
      return Promise.resolve();
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return Promise.resolve();
    const spec = a.object['spec'];
    if (!isJsonObject(spec)) return Promise.resolve();
    const tolerations = Array.isArray(spec['tolerations']) ? spec['tolerations'] : [];
    const added: JsonValue[] = [];
    for (const key of [notReady, unreachable]) {
      if (!tolerates(tolerations, key)) {
        added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultSeconds });
      }
    }
    if (added.length > 0) spec['tolerations'] = [...tolerations, ...added];
    return Promise.resolve();
  };
}

/** DefaultTolerationSeconds as a plugin of the chain (mutating). */
export function defaultTolerationSecondsPlugin(): AdmissionPlugin {
  const admit = defaultTolerationSeconds();
  return { name: 'DefaultTolerationSeconds', operations: createUpdate, admit };
}
