/**
 * AlwaysPullImages (mutating and validating, off by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/alwayspullimages): every init, regular and ephemeral container of a pod
 * gets `imagePullPolicy: Always`, so an image cached on a node is only used by pods whose
 * credentials can pull it; validation then refuses any container without it. An update that
 * brings no image the stored pod did not already use is left alone (kubelet-side changes such as
 * an activeDeadlineSeconds edit must not be blocked), and so are subresources (ephemeral
 * containers added through `pods/ephemeralcontainers` included, as upstream).
 *
 * Refusals are upstream's: a Forbidden per container wrapping `spec.<list>[i].imagePullPolicy:
 * Unsupported value`, aggregated (utilerrors.NewAggregate), which kube-apiserver answers as a 500
 * with the aggregate's text since an aggregate is not an API status.
 */
import { fieldErrors, FieldPath } from '../machinery/field/errors.js';
import type { KubeObject } from '../machinery/object.js';
import type { JsonObject } from '../util/json.js';
import { obj, objArr, str } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newForbidden } from './new-forbidden.js';
import { aggregateMessage, plainError } from './plain-error.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

/** pods.VisitContainersWithPath's order: init, regular, then ephemeral containers. */
function containersWithPath(pod: KubeObject): [JsonObject, FieldPath][] {
  const spec = obj(pod, 'spec');
  const out: [JsonObject, FieldPath][] = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const path = FieldPath.root('spec', list);
    objArr(spec, list).forEach((c, i) => out.push([c, path.index(i)]));
  }
  return out;
}

function isUpdateWithNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE' || a.object === undefined || a.oldObject === undefined) return false;
  const oldImages = new Set(containersWithPath(a.oldObject).map(([c]) => str(c, 'image') ?? ''));
  return containersWithPath(a.object).every(([c]) => oldImages.has(str(c, 'image') ?? ''));
}

const ignored = (a: AdmissionAttributes): boolean =>
  a.subresource !== '' || !isResource(a, '', 'pods') || isUpdateWithNoNewImages(a);

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function alwaysPullImagesPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'AlwaysPullImages',
    operations: createUpdate,
    admit(a) {
      if (ignored(a)) return;
      for (const [c] of containersWithPath(a.object)) c['imagePullPolicy'] = 'Always';
    },
    validate(a) {
      if (ignored(a) || a.object === undefined) return;
      const refusals: string[] = [];
      for (const [c, path] of containersWithPath(a.object)) {
        const policy = str(c, 'imagePullPolicy') ?? '';
        if (policy === 'Always') continue;
        const err = fieldErrors.notSupported(path.child('imagePullPolicy'), policy, ['Always']);
        refusals.push(newForbidden(a, err.toString()).message);
      }
      if (refusals.length > 0) throw plainError(aggregateMessage(refusals));
    },
  };
}
