/**
 * Priority (kube-apiserver v1.27's plugin/pkg/admission/priority): a new pod's
 * `priorityClassName` is resolved to `priority` and `preemptionPolicy` (a pod without one gets the
 * `globalDefault` class — the lowest valued if several — or priority 0 and PreemptLowerPriority);
 * a pod may not bring its own differing values, and an unknown class is refused. Updates keep the
 * values the create computed. A PriorityClass may be `globalDefault` only when no other is.
 */
import { isJsonObject } from '../util/json.js';
import type { KubeObject } from '../machinery/object.js';
import type { AdmissionAttributes, ObjectAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { forbidden } from './errors.js';
import type { AdmissionPlugin } from './plugin.js';

const priorityClasses = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

interface Resolved {
  readonly name: string;
  readonly value: number;
  readonly preemptionPolicy?: string;
}

/** The globalDefault class; with several (a race), the one of lowest value. */
async function defaultClass(deps: AdmissionDependencies): Promise<KubeObject | undefined> {
  let found: KubeObject | undefined;
  for (const pc of await deps.lookup.list(priorityClasses, '')) {
    if (pc['globalDefault'] !== true) continue;
    if (found === undefined || Number(found['value']) > Number(pc['value'])) found = pc;
  }
  return found;
}

function resolvedOf(pc: KubeObject): Resolved {
  const policy = pc['preemptionPolicy'];
  return {
    name: pc.metadata.name ?? '',
    value: typeof pc['value'] === 'number' ? pc['value'] : 0,
    ...(typeof policy === 'string' ? { preemptionPolicy: policy } : {}),
  };
}

async function admitPod(deps: AdmissionDependencies, a: ObjectAttributes): Promise<void> {
  if (!isJsonObject(a.object['spec'])) a.object['spec'] = {};
  const spec = a.object['spec'];
  if (a.operation === 'UPDATE') {
    // Validation forbids changing them; an update that leaves them out keeps what create set.
    const old = a.oldObject?.['spec'];
    if (!isJsonObject(old)) return;
    if (spec['priority'] === undefined && old['priority'] !== undefined) spec['priority'] = old['priority'];
    if (spec['preemptionPolicy'] === undefined && old['preemptionPolicy'] !== undefined) {
      spec['preemptionPolicy'] = old['preemptionPolicy'];
    }
    return;
  }
  if (a.operation !== 'CREATE') return;
  const className = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
  let resolved: Resolved;
  if (className === '') {
    const pc = await defaultClass(deps);
    resolved =
      pc !== undefined ? resolvedOf(pc) : { name: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' };
    if (resolved.name !== '') spec['priorityClassName'] = resolved.name;
  } else {
    const pc = await deps.lookup.get(priorityClasses, '', className);
    if (pc === undefined) throw forbidden(a, `no PriorityClass with name ${className} was found`);
    resolved = resolvedOf(pc);
  }
  if (typeof spec['priority'] === 'number' && spec['priority'] !== resolved.value) {
    throw forbidden(
      a,
      `the integer value of priority (${spec['priority']}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`,
    );
  }
  spec['priority'] = resolved.value;
  if (resolved.preemptionPolicy !== undefined) {
    const sent = spec['preemptionPolicy'];
    if (typeof sent === 'string' && sent !== resolved.preemptionPolicy) {
      throw forbidden(
        a,
        `the string value of PreemptionPolicy (${sent}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`,
      );
    }
    spec['preemptionPolicy'] = resolved.preemptionPolicy;
  }
}

async function validatePriorityClass(deps: AdmissionDependencies, a: AdmissionAttributes): Promise<void> {
  const pc = a.object;
  if (pc === undefined || pc['globalDefault'] !== true) return;
  const current = await defaultClass(deps);
  if (current === undefined) return;
  if (a.operation === 'CREATE' || current.metadata.name !== pc.metadata.name) {
    throw forbidden(
      a,
      `PriorityClass ${current.metadata.name ?? ''} is already marked as default. Only one default can exist`,
    );
  }
}

export function priorityPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'Priority',
    operations: new Set(['CREATE', 'UPDATE', 'DELETE']),
    admit: (a) => {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'pods') return;
      return admitPod(deps, a);
    },
    validate: (a) => {
      if (a.subresource !== '' || a.resource.group !== priorityClasses.group) return;
      if (a.resource.resource !== priorityClasses.resource) return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      return validatePriorityClass(deps, a);
    },
  };
}
