/**
 * RuntimeClass (mutating and validating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/runtimeclass): a pod created with `spec.runtimeClassName` takes what its
 * node.k8s.io/v1 RuntimeClass defines.
 *
 * - A missing RuntimeClass (after a live read behind the cache) refuses the pod.
 * - `overhead.podFixed` becomes `spec.overhead`; a pod that brings its own, different overhead
 *   is refused. Validation repeats the check, and refuses an overhead set without a class that
 *   defines one.
 * - `scheduling.nodeSelector` is merged into the pod's (a key both set differently is a
 *   conflict) and `scheduling.tolerations` merged with the pod's (pkg/util/tolerations).
 *
 * Creates of pods only (upstream's handler is `admission.NewHandler(admission.Create)`; both the
 * mutating and the validating step run on creates alone); subresources are left alone.
 */
import type { KubeObject } from '../machinery/object.js';
import { compareQuantity, parseQuantityJSON } from '../machinery/quantity/quantity.js';
import type { Quantity } from '../machinery/quantity/quantity.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import { obj, strMap } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { plainError } from './plain-error.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { mergeTolerations, tolerationList } from './tolerations.js';

const runtimeClasses = { group: 'node.k8s.io', resource: 'runtimeclasses' };
const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

function quantity(v: JsonValue | undefined): Quantity | undefined {
  try {
    return parseQuantityJSON(v);
  } catch {
    return undefined;
  }
}

/**
 * apiequality.Semantic.DeepEqual of two ResourceLists: nil and empty are equal, quantities are
 * compared by value (1Gi equals 1024Mi).
 */
function resourceListsEqual(a: JsonObject | undefined, b: JsonObject | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (b === undefined || !Object.hasOwn(b, k)) return false;
    const x = quantity(a?.[k]);
    const y = quantity(b[k]);
    if (x === undefined || y === undefined ? x !== y : compareQuantity(x, y) !== 0) return false;
  }
  return true;
}

function podSpec(pod: KubeObject): JsonObject {
  if (!isJsonObject(pod['spec'])) pod['spec'] = {};
  return pod['spec'];
}

function sortedStrings(o: Record<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}

export function runtimeClassPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  /** prepareObjects: the pod's RuntimeClass, undefined when it names none. */
  async function runtimeClassOf(a: AdmissionAttributes, pod: KubeObject): Promise<KubeObject | undefined> {
    const name = obj(pod, 'spec')?.['runtimeClassName'];
    if (typeof name !== 'string') return undefined;
    // client-go refuses a Get without a name before asking the server.
    if (name === '') throw plainError('resource name may not be empty');
    const cached = await deps.lookup.get(runtimeClasses, '', name);
    if (cached !== undefined) return cached;
    // The informer cache could be lagging: read storage.
    const live = await deps.lookup.getLive?.(runtimeClasses, '', name);
    if (live !== undefined) return live;
    throw newForbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
  }

  function setOverhead(a: AdmissionAttributes, spec: JsonObject, rc: KubeObject | undefined): void {
    const overhead = obj(rc, 'overhead');
    if (overhead === undefined) return;
    const podFixed = obj(overhead, 'podFixed');
    const podOverhead = obj(spec, 'overhead');
    if (podOverhead !== undefined && !resourceListsEqual(podFixed, podOverhead)) {
      throw newForbidden(a, overheadMismatch);
    }
    if (podFixed !== undefined && Object.keys(podFixed).length > 0) spec['overhead'] = { ...podFixed };
    else delete spec['overhead'];
  }

  function setScheduling(a: AdmissionAttributes, spec: JsonObject, rc: KubeObject | undefined): void {
    const scheduling = obj(rc, 'scheduling');
    if (scheduling === undefined) return;
    const runtimeSelector = strMap(scheduling, 'nodeSelector');
    const podSelector = strMap(spec, 'nodeSelector');
    let selector: Record<string, string> | undefined;
    if (podSelector === undefined) {
      selector = runtimeSelector;
    } else {
      selector = { ...podSelector };
      for (const [key, runtimeValue] of Object.entries(runtimeSelector ?? {}).sort(([a], [b]) =>
        a < b ? -1 : 1,
      )) {
        const podValue = podSelector[key];
        if (podValue !== undefined && podValue !== runtimeValue) {
          throw newForbidden(
            a,
            `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${runtimeValue}; pod.spec.nodeSelector[${key}] = ${podValue}`,
          );
        }
        selector[key] = runtimeValue;
      }
    }
    const tolerations = mergeTolerations(
      tolerationList(spec['tolerations']),
      tolerationList(scheduling['tolerations']),
    );
    if (selector !== undefined && Object.keys(selector).length > 0)
      spec['nodeSelector'] = sortedStrings(selector);
    else delete spec['nodeSelector'];
    if (tolerations.length > 0) spec['tolerations'] = tolerations;
    else delete spec['tolerations'];
  }

  const ignored = (a: AdmissionAttributes): boolean => a.subresource !== '' || !isResource(a, '', 'pods');

  return {
    name: 'RuntimeClass',
    operations: createOnly,
    async admit(a) {
      if (ignored(a)) return;
      const rc = await runtimeClassOf(a, a.object);
      const spec = podSpec(a.object);
      setOverhead(a, spec, rc);
      setScheduling(a, spec, rc);
    },
    async validate(a) {
      if (ignored(a) || a.object === undefined) return;
      const rc = await runtimeClassOf(a, a.object);
      const podOverhead = obj(obj(a.object, 'spec'), 'overhead');
      const overhead = obj(rc, 'overhead');
      if (overhead !== undefined) {
        if (!resourceListsEqual(obj(overhead, 'podFixed'), podOverhead)) {
          throw newForbidden(a, overheadMismatch);
        }
      } else if (podOverhead !== undefined) {
        throw newForbidden(
          a,
          'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
        );
      }
    },
  };
}
