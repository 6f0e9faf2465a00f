/**
 * ExtendedResourceToleration (mutating, kube-apiserver v1.27; upstream
 * plugin/pkg/admission/extendedresourcetoleration): a pod whose init or regular containers request
 * an extended resource (a domain-qualified name outside kubernetes.io, e.g. `example.com/gpu`)
 * gets a `{key: <resource>, operator: Exists, effect: NoSchedule}` toleration for each, in sorted
 * order, so nodes tainted with the resource's name accept it. A toleration matching on key,
 * operator, value and effect is replaced in place (upstream's AddOrUpdateTolerationInPod compares
 * a pointer with a value, so it never sees one as already equal). Creates and updates of pods;
 * subresources are left alone.
 */
import type { JsonObject } from '../util/json.js';
import { obj, objArr } from '../apis/core/v1/access.js';
import { isExtendedResourceName } from '../apis/core/v1/validation/resource-names.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { tolerationList } from './tolerations.js';

const field = (t: JsonObject, key: string): string => (typeof t[key] === 'string' ? t[key] : '');

/** Toleration.MatchToleration: same key, effect, operator and value. */
function matches(a: JsonObject, b: JsonObject): boolean {
  return ['key', 'effect', 'operator', 'value'].every((k) => field(a, k) === field(b, k));
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function extendedResourceTolerationPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'ExtendedResourceToleration',
    operations: createUpdate,
    admit(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods')) return;
      const spec = obj(a.object, 'spec');
      if (spec === undefined) return;
      const names = new Set<string>();
      for (const c of [...objArr(spec, 'containers'), ...objArr(spec, 'initContainers')]) {
        for (const name of Object.keys(obj(obj(c, 'resources'), 'requests') ?? {})) {
          if (isExtendedResourceName(name)) names.add(name);
        }
      }
      for (const name of [...names].sort()) {
        const toleration: JsonObject = { key: name, operator: 'Exists', effect: 'NoSchedule' };
        const current = tolerationList(spec['tolerations']);
        const i = current.findIndex((t) => matches(toleration, t));
        spec['tolerations'] =
          i < 0 ? [...current, toleration] : current.map((t, j) => (j === i ? toleration : t));
      }
    },
  };
}
