/** Pod defaults (upstream SetDefaults_Pod, SetDefaults_PodSpec and what they reach). */
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { bool, ensureObj, obj, objArr, setDefault, setDefaultStr } from '../access.js';
import { defaultContainer } from './container.js';
import { defaultVolume } from './volume.js';

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function defaultHostNetworkPorts(containers: JsonObject[]): void {
  for (const c of containers) {
    for (const p of objArr(c, 'ports')) {
      const hostPort = p['hostPort'];
      if (hostPort === undefined || hostPort === null || hostPort === 0) {
        const containerPort = p['containerPort'];
        if (typeof containerPort === 'number') p['hostPort'] = containerPort;
      }
    }
  }
}

/** Defaults of a PodSpec, wherever it appears (pods and pod templates). */
export function defaultPodSpec(spec: JsonObject): void {
  setDefaultStr(spec, 'dnsPolicy', 'ClusterFirst');
  setDefaultStr(spec, 'restartPolicy', 'Always');
  if (bool(spec, 'hostNetwork') === true) {
    defaultHostNetworkPorts(objArr(spec, 'containers'));
    defaultHostNetworkPorts(objArr(spec, 'initContainers'));
  }
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefaultStr(spec, 'schedulerName', 'default-scheduler');
  for (const list of containerLists) for (const c of objArr(spec, list)) defaultContainer(c);
  for (const v of objArr(spec, 'volumes')) defaultVolume(v);
  mirrorServiceAccount(spec);
}

/**
 * The v1 round trip every PodSpec makes upstream (Convert_v1_PodSpec_To_core_PodSpec and back): a
 * missing serviceAccountName comes from the deprecated serviceAccount, which then always mirrors
 * serviceAccountName (and is dropped with it).
 */
function mirrorServiceAccount(spec: JsonObject): void {
  const name = spec['serviceAccountName'];
  const deprecated = spec['serviceAccount'];
  if ((typeof name !== 'string' || name === '') && typeof deprecated === 'string' && deprecated !== '') {
    spec['serviceAccountName'] = deprecated;
  }
  const resolved = spec['serviceAccountName'];
  if (typeof resolved === 'string' && resolved !== '') spec['serviceAccount'] = resolved;
  else delete spec['serviceAccount'];
}

/** Defaults of a PodTemplateSpec (the spec only; template metadata has none). */
export function defaultPodTemplateSpec(template: JsonObject): void {
  defaultPodSpec(ensureObj(template, 'spec'));
}

/** Requests default to limits for every resource only limited (pods only, not templates). */
function defaultRequestsFromLimits(c: JsonObject): void {
  const resources = obj(c, 'resources');
  const limits = obj(resources, 'limits');
  if (resources === undefined || limits === undefined || Object.keys(limits).length === 0) return;
  const requests = ensureObj(resources, 'requests');
  for (const [name, value] of Object.entries(limits)) {
    if (requests[name] === undefined) requests[name] = value;
  }
}

/** Defaults of a whole Pod object. */
export function defaultPod(pod: JsonObject): void {
  const spec = pod['spec'];
  if (!isJsonObject(spec)) {
    pod['spec'] = {};
    defaultPod(pod);
    return;
  }
  for (const c of objArr(spec, 'containers')) defaultRequestsFromLimits(c);
  for (const c of objArr(spec, 'initContainers')) defaultRequestsFromLimits(c);
  setDefault(spec, 'enableServiceLinks', true);
  defaultPodSpec(spec);
  // Upstream v1.27 Convert_v1_Pod_To_core_Pod: a Pod's negative grace period becomes 1
  // (pods only; templates keep theirs and get a warning).
  const grace = spec['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0) spec['terminationGracePeriodSeconds'] = 1;
}
