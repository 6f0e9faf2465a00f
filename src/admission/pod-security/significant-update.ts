/**
 * upstream isSignificantPodUpdate: a pod update is re-evaluated only when it may change what the
 * policy looks at. The only mutable spec fields the checks care about are container images and
 * added ephemeral containers, so a change of container count, of an image, or a new ephemeral
 * container counts; metadata, status and everything else does not.
 */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { containerName, objectField, objectsField, stringField } from './pod-fields.js';

export function isSignificantPodUpdate(pod: KubeObject, oldPod: KubeObject): boolean {
  const spec = objectField(pod, 'spec');
  const oldSpec = objectField(oldPod, 'spec');
  for (const key of ['containers', 'initContainers']) {
    const now = objectsField(spec, key);
    const before = objectsField(oldSpec, key);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => image(c) !== image(before[i]))) return true;
  }
  const oldEphemeral = objectsField(oldSpec, 'ephemeralContainers');
  for (const c of objectsField(spec, 'ephemeralContainers')) {
    const old = oldEphemeral.find((o) => containerName(o) === containerName(c));
    if (old === undefined || image(c) !== image(old)) return true;
  }
  return false;
}

function image(c: JsonObject | undefined): string {
  return stringField(c, 'image');
}
