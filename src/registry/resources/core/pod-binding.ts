/**
 * Binding a pod to a node (upstream pkg/registry/core/pod/storage BindingREST): POST a Binding to
 * `pods/{name}/binding` (or to the `bindings` collection). The pod's spec.nodeName is set and its
 * PodScheduled condition becomes True in one storage update, past the pod strategy (which forbids
 * spec changes), as upstream does.
 */
import { apiErrors, StatusError } from '../../../machinery/errors.js';
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { StorageError } from '../../../storage/errors.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { formatTime } from '../../generic/metadata.js';
import type { GenericStore } from '../../generic/store.js';
import { translateStorageError } from '../../generic/translate.js';

const pods = { group: '', resource: 'pods' };

/** The Status a successful binding answers with (HTTP 201, no code field, as upstream). */
export const bindingSucceeded: KubeObject = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
};

function targetOf(binding: KubeObject): JsonObject {
  const t = binding['target'];
  return isJsonObject(t) ? t : {};
}

/** Upstream ValidatePodBinding. */
function validateBinding(binding: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const target = targetOf(binding);
  const kind = typeof target['kind'] === 'string' ? target['kind'] : '';
  if (kind !== '' && kind !== 'Node') {
    errs.push(fieldErrors.notSupported(FieldPath.root('target', 'kind'), kind, ['Node', '<empty>']));
  }
  if (typeof target['name'] !== 'string' || target['name'] === '') {
    errs.push(fieldErrors.required(FieldPath.root('target', 'name'), ''));
  }
  return errs;
}

export async function bindPod(o: {
  readonly pods: GenericStore;
  readonly namespace: string;
  /** The pod named in the URL ('' when posted to the bindings collection). */
  readonly name: string;
  readonly binding: KubeObject;
  readonly dryRun: boolean;
  readonly now?: () => Date;
}): Promise<KubeObject> {
  const podName = o.binding.metadata.name ?? '';
  if (o.name !== '' && o.name !== podName) {
    throw apiErrors.badRequest('name in URL does not match name in Binding object');
  }
  const errs = validateBinding(o.binding);
  // Upstream returns the aggregate as a plain error: a 500 without reason.
  if (errs.length > 0) {
    const text = errs.length === 1 ? errs[0]!.toString() : `[${errs.map((e) => e.toString()).join(', ')}]`;
    throw new StatusError(500, '', text);
  }
  const target = targetOf(o.binding)['name'];
  const node = typeof target === 'string' ? target : '';
  const annotations = o.binding.metadata.annotations ?? {};
  const uid = o.binding.metadata.uid;
  const rv = o.binding.metadata.resourceVersion;
  const assign = (pod: KubeObject | undefined): KubeObject => {
    if (pod === undefined) throw apiErrors.notFound(pods, podName);
    const spec = isJsonObject(pod['spec']) ? pod['spec'] : {};
    const conflict = (message: string): StatusError => apiErrors.conflict(pods, podName, message);
    if (pod.metadata.deletionTimestamp !== undefined) {
      throw conflict(`pod ${podName} is being deleted, cannot be assigned to a host`);
    }
    if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
      throw conflict(`pod ${podName} is already assigned to node ${JSON.stringify(spec['nodeName'])}`);
    }
    if (Array.isArray(spec['schedulingGates']) && spec['schedulingGates'].length > 0) {
      throw conflict(`pod ${podName} has non-empty .spec.schedulingGates`);
    }
    spec['nodeName'] = node;
    pod['spec'] = spec;
    pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
    const status = isJsonObject(pod['status']) ? pod['status'] : {};
    const conditions = Array.isArray(status['conditions']) ? status['conditions'].filter(isJsonObject) : [];
    const scheduled = conditions.find((c) => c['type'] === 'PodScheduled');
    if (scheduled === undefined) {
      conditions.push({
        type: 'PodScheduled',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: formatTime((o.now ?? (() => new Date()))()),
      });
    } else if (scheduled['status'] !== 'True') {
      scheduled['status'] = 'True';
      scheduled['lastTransitionTime'] = formatTime((o.now ?? (() => new Date()))());
    }
    status['conditions'] = conditions;
    pod['status'] = status;
    return pod;
  };
  const key = o.pods.key(o.namespace, podName);
  const preconditions = {
    ...(uid !== undefined && uid !== '' ? { uid } : {}),
    ...(rv !== undefined && rv !== '' ? { resourceVersion: rv } : {}),
  };
  try {
    if (o.dryRun) assign(await o.pods.storage.get(key));
    // The first attempt starts from the watch cache's copy (a stale one is read again from storage).
    else {
      await o.pods.storage.guaranteedUpdate(key, assign, {
        preconditions,
        cachedExisting: o.pods.cachedObject(key),
      });
    }
  } catch (err) {
    if (err instanceof StatusError) throw err;
    if (err instanceof StorageError && err.code !== 'PreconditionFailed') {
      throw translateStorageError(err, pods, podName, 'update');
    }
    throw apiErrors.conflict(pods, podName, err instanceof Error ? err.message : String(err));
  }
  return bindingSucceeded;
}
