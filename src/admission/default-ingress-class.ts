/**
 * DefaultIngressClass (mutating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/network/defaultingressclass): a networking.k8s.io Ingress created without
 * `spec.ingressClassName` and without the legacy `kubernetes.io/ingress.class` annotation gets the
 * name of the IngressClass whose `ingressclass.kubernetes.io/is-default-class` annotation is
 * "true". With several defaults v1.27 takes the newest (then the lowest name) rather than refusing
 * (the change of v1.25); with none the Ingress is left as it is. Creates only; subresources are
 * left alone.
 */
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { newestDefaultClass } from './newest-default-class.js';
import { newForbiddenFrom } from './new-forbidden.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const ingressClasses = { group: 'networking.k8s.io', resource: 'ingressclasses' };

const isDefaultClass = (c: KubeObject): boolean =>
  c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true';

export function defaultIngressClassPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    operations: createOnly,
    async admit(a) {
      if (!isResource(a, 'networking.k8s.io', 'ingresses') || a.subresource !== '') return;
      const spec = a.object['spec'];
      if (isJsonObject(spec) && typeof spec['ingressClassName'] === 'string') return;
      const annotations = a.object.metadata.annotations;
      if (annotations !== undefined && Object.hasOwn(annotations, 'kubernetes.io/ingress.class')) return;
      let classes: readonly KubeObject[];
      try {
        classes = await deps.lookup.list(ingressClasses, '');
      } catch (err) {
        throw newForbiddenFrom(a, err);
      }
      const chosen = newestDefaultClass(classes, isDefaultClass);
      if (chosen?.metadata.name === undefined) return;
      const target = isJsonObject(spec) ? spec : (a.object['spec'] = {});
      target['ingressClassName'] = chosen.metadata.name;
    },
  };
}
