/**
 * PodNodeSelector (mutating and validating, off by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/podnodeselector): a pod created in a namespace gets the namespace's node
 * selector merged into its own — the namespace's `scheduler.alpha.kubernetes.io/node-selector`
 * annotation (`k1=v1,k2=v2`; present but empty means none), or else the cluster default from the
 * plugin configuration — and must stay within the namespace's whitelist from the configuration:
 *
 *     podNodeSelectorPluginConfig:
 *       clusterDefaultNodeSelector: env=prod
 *       team-a: env=prod,tier=web      # whitelist of namespace team-a
 *
 * A pod selector contradicting the namespace's is refused, and so is one outside the whitelist;
 * a missing namespace, and unparsable selectors, fail as upstream does (500s). Creates of pods
 * only; subresources are left alone.
 */
import { apiErrors } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import { obj, strMap } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { plainError } from './plain-error.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { convertSelectorToLabelsMap, labelsConflict } from './selector-labels-map.js';

const pluginName = 'PodNodeSelector';
const namespaceAnnotation = 'scheduler.alpha.kubernetes.io/node-selector';
const namespaces = { group: '', resource: 'namespaces' };
const pods = { group: '', resource: 'pods' };

/**
 * The `podNodeSelectorPluginConfig` map of the configuration (Go's encoding/json matches the field
 * name case-insensitively); values that are not strings are skipped.
 */
export function podNodeSelectorConfig(config: JsonValue | undefined): Record<string, string> {
  if (!isJsonObject(config)) return {};
  const key =
    Object.keys(config).find((k) => k === 'podNodeSelectorPluginConfig') ??
    Object.keys(config).find((k) => k.toLowerCase() === 'podnodeselectorpluginconfig');
  const raw = key === undefined ? undefined : config[key];
  const out: Record<string, string> = {};
  if (isJsonObject(raw)) for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') out[k] = v;
  return out;
}

function parsed(selector: string): Record<string, string> {
  const r = convertSelectorToLabelsMap(selector);
  if (!r.ok) throw plainError(r.error);
  return r.labels;
}

/** isSubset: an empty whitelist allows everything. */
function withinWhitelist(selector: Record<string, string>, whitelist: Record<string, string>): boolean {
  if (Object.keys(whitelist).length === 0) return true;
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(whitelist, k) && whitelist[k] === v);
}

function sorted(labels: Record<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(labels).sort()) out[k] = labels[k]!;
  return out;
}

export function podNodeSelectorPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  const clusterNodeSelectors = podNodeSelectorConfig(deps.pluginConfig(pluginName));

  async function namespaceNodeSelector(name: string): Promise<Record<string, string>> {
    const ns =
      (await deps.lookup.get(namespaces, '', name)) ?? (await deps.lookup.getLive?.(namespaces, '', name));
    // upstream's live read turns every failure into this plain error, then into an InternalError.
    if (ns === undefined) throw apiErrors.internal(new Error(`namespace ${name} does not exist`));
    const annotations = ns.metadata.annotations;
    if (annotations !== undefined && Object.hasOwn(annotations, namespaceAnnotation)) {
      return parsed(annotations[namespaceAnnotation]!);
    }
    return parsed(clusterNodeSelectors['clusterDefaultNodeSelector'] ?? '');
  }

  const ignored = (a: AdmissionAttributes): boolean => !isResource(a, '', 'pods') || a.subresource !== '';
  const podName = (pod: KubeObject): string => pod.metadata.name ?? '';

  async function validatePod(a: AdmissionAttributes, pod: KubeObject): Promise<void> {
    const nsSelector = await namespaceNodeSelector(a.namespace);
    const selector = strMap(obj(pod, 'spec'), 'nodeSelector') ?? {};
    if (labelsConflict(nsSelector, selector)) {
      throw apiErrors.forbidden(
        pods,
        podName(pod),
        'pod node label selector conflicts with its namespace node label selector',
      );
    }
    const whitelist = parsed(clusterNodeSelectors[a.namespace] ?? '');
    if (!withinWhitelist(selector, whitelist)) {
      throw apiErrors.forbidden(
        pods,
        podName(pod),
        'pod node label selector labels conflict with its namespace whitelist',
      );
    }
  }

  return {
    name: pluginName,
    operations: createOnly,
    async admit(a) {
      if (ignored(a)) return;
      const pod = a.object;
      const nsSelector = await namespaceNodeSelector(a.namespace);
      if (!isJsonObject(pod['spec'])) pod['spec'] = {};
      const spec = pod['spec'];
      const selector = strMap(spec, 'nodeSelector') ?? {};
      if (labelsConflict(nsSelector, selector)) {
        throw apiErrors.forbidden(
          pods,
          podName(pod),
          'pod node label selector conflicts with its namespace node label selector',
        );
      }
      // labels.Merge: the pod's own values win (they cannot differ after the conflict check).
      const merged = { ...nsSelector, ...selector };
      if (Object.keys(merged).length > 0) spec['nodeSelector'] = sorted(merged);
      else delete spec['nodeSelector'];
      await validatePod(a, pod);
    },
    async validate(a) {
      if (ignored(a) || a.object === undefined) return;
      await validatePod(a, a.object);
    },
  };
}
