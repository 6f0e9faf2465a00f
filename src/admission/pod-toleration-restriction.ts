/**
 * PodTolerationRestriction (mutating and validating, off by default in kube-apiserver v1.27;
 * upstream plugin/pkg/admission/podtolerationrestriction):
 *
 * - On create a pod's tolerations are merged (pkg/util/tolerations, supersets kept) with its
 *   namespace's default tolerations — the JSON list in the namespace annotation
 *   `scheduler.alpha.kubernetes.io/defaultTolerations` (present but empty means none), else the
 *   configuration's `default` list.
 * - On create and update a pod that is not BestEffort also gets the
 *   `node.kubernetes.io/memory-pressure` Exists/NoSchedule toleration.
 * - The resulting tolerations must each be covered by the namespace whitelist
 *   (`scheduler.alpha.kubernetes.io/tolerationsWhitelist`), else the configuration's `whitelist`
 *   (an empty whitelist allows everything). A violation is upstream's plain error, so a 500.
 *
 * The configuration file is `apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1`,
 * `kind: Configuration` with `default` and `whitelist` toleration lists. Pods only; subresources
 * are left alone. A missing namespace is its NotFound.
 */
import { apiErrors } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import { cloneJson, isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import { obj } from '../apis/core/v1/access.js';
import { podQOSClass } from '../apis/core/v1/qos.js';
import { isResource } from './attributes.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { plainError } from './plain-error.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { tolerationsFromJson, tolerationsFromText } from './toleration-json.js';
import { mergeTolerations, tolerationList, verifyAgainstWhitelist } from './tolerations.js';

const pluginName = 'PodTolerationRestriction';
const defaultTolerationsAnnotation = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const whitelistAnnotation = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const namespaces = { group: '', resource: 'namespaces' };
const memoryPressure: JsonObject = {
  key: 'node.kubernetes.io/memory-pressure',
  operator: 'Exists',
  effect: 'NoSchedule',
};

export interface PodTolerationRestrictionConfig {
  readonly default: JsonObject[] | undefined;
  readonly whitelist: JsonObject[] | undefined;
}

/** The plugin's configuration; throws on a wrongly typed list (upstream fails to start). */
export function podTolerationRestrictionConfig(
  config: JsonValue | undefined,
): PodTolerationRestrictionConfig {
  if (!isJsonObject(config)) return { default: undefined, whitelist: undefined };
  const list = (name: string): JsonObject[] | undefined => {
    const key = Object.keys(config).find((k) => k.toLowerCase() === name);
    const r = tolerationsFromJson(key === undefined ? undefined : config[key]);
    if (!r.ok) throw new Error(`${pluginName} configuration: ${r.error}`);
    return r.tolerations;
  };
  return { default: list('default'), whitelist: list('whitelist') };
}

export function podTolerationRestrictionPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const config = podTolerationRestrictionConfig(deps.pluginConfig(pluginName));

  async function namespaceOf(name: string): Promise<KubeObject> {
    const ns =
      (await deps.lookup.get(namespaces, '', name)) ?? (await deps.lookup.getLive?.(namespaces, '', name));
    if (ns === undefined) throw apiErrors.notFound(namespaces, name);
    return ns;
  }

  /** extractNSTolerations: undefined (nil) when the annotation is absent. */
  async function namespaceTolerations(name: string, annotation: string): Promise<JsonObject[] | undefined> {
    const annotations = (await namespaceOf(name)).metadata.annotations;
    if (annotations === undefined || !Object.hasOwn(annotations, annotation)) return undefined;
    const text = annotations[annotation]!;
    if (text === '') return [];
    const r = tolerationsFromText(text);
    if (!r.ok) throw plainError(r.error);
    return r.tolerations ?? [];
  }

  const ignored = (a: AdmissionAttributes): boolean => !isResource(a, '', 'pods') || a.subresource !== '';

  async function validatePod(a: AdmissionAttributes, pod: KubeObject): Promise<void> {
    const tolerations = tolerationList(obj(pod, 'spec')?.['tolerations']);
    if (tolerations.length === 0) return;
    let whitelist = await namespaceTolerations(a.namespace, whitelistAnnotation);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = config.whitelist;
      scope = 'cluster';
    }
    if (whitelist !== undefined && whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      throw plainError(
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`,
      );
    }
  }

  return {
    name: pluginName,
    operations: createUpdate,
    async admit(a) {
      if (ignored(a)) return;
      const pod = a.object;
      let extra: JsonObject[] = [];
      if (a.operation === 'CREATE') {
        extra =
          (await namespaceTolerations(a.namespace, defaultTolerationsAnnotation)) ?? config.default ?? [];
      }
      if (!isJsonObject(pod['spec'])) pod['spec'] = {};
      const spec = pod['spec'];
      if (podQOSClass(spec) !== 'BestEffort') extra = [...extra, memoryPressure];
      if (extra.length > 0) {
        // Copies, so the configuration's lists never end up shared with a stored pod.
        spec['tolerations'] = mergeTolerations(tolerationList(spec['tolerations']), extra.map(cloneJson));
      }
      await validatePod(a, pod);
    },
    async validate(a) {
      if (ignored(a) || a.object === undefined) return;
      await validatePod(a, a.object);
    },
  };
}
