/**
 * SecurityContextDeny (validating, kube-apiserver v1.27, deprecated there in favour of Pod
 * Security admission; upstream plugin/pkg/admission/securitycontext/scdeny): a pod may not set
 * the pod-level securityContext's supplementalGroups, seLinuxOptions, runAsUser or fsGroup, nor an
 * init or regular container's seLinuxOptions or runAsUser (ephemeral containers are not looked at,
 * as upstream). Creates and updates of pods; subresources are left alone. It logs a deprecation
 * warning when built.
 */
import { apiErrors } from '../machinery/errors.js';
import type { JsonObject } from '../util/json.js';
import { obj, objArr } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { createUpdate } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';
import { InitializationError } from './plugin.js';

const pluginName = 'SecurityContextDeny';
const pods = { group: '', resource: 'pods' };

/** A pointer or slice field that is set (present and not null). */
const isSet = (o: JsonObject | undefined, key: string): boolean => o?.[key] !== undefined && o[key] !== null;

/** The pod-level fields refused: JSON name and upstream's Go name, in upstream's order. */
const podFields = [
  ['supplementalGroups', 'SupplementalGroups'],
  ['seLinuxOptions', 'SELinuxOptions'],
  ['runAsUser', 'RunAsUser'],
  ['fsGroup', 'FSGroup'],
] as const;

/** The first refusal for the pod spec, in upstream's order. */
function refusal(spec: JsonObject | undefined): string | undefined {
  const psc = obj(spec, 'securityContext');
  if (psc !== undefined) {
    for (const [key, field] of podFields) {
      if (isSet(psc, key)) return `pod.Spec.SecurityContext.${field} is forbidden`;
    }
  }
  for (const c of [...objArr(spec, 'initContainers'), ...objArr(spec, 'containers')]) {
    const sc = obj(c, 'securityContext');
    if (isSet(sc, 'seLinuxOptions')) return 'SecurityContext.SELinuxOptions is forbidden';
    if (isSet(sc, 'runAsUser')) return 'SecurityContext.RunAsUser is forbidden';
  }
  return undefined;
}

const docLink = 'https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny';

export function securityContextDenyPlugin(deps: AdmissionDependencies): AdmissionPlugin {
  // v1.27 put the plugin behind an alpha gate, checked when the chain is initialized.
  if (!deps.features.enabled(pluginName)) {
    throw new InitializationError(
      `${pluginName} admission controller is an alpha feature, planned to be removed, and requires the ${pluginName} feature gate to be enabled, see ${docLink} for more information`,
    );
  }
  deps.log(
    `${pluginName} admission controller is deprecated. Please remove this controller from your configuration files and scripts. See https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information.`,
  );
  return {
    name: pluginName,
    operations: createUpdate,
    validate(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods') || a.object === undefined) return;
      const message = refusal(obj(a.object, 'spec'));
      if (message !== undefined) throw apiErrors.forbidden(pods, a.object.metadata.name ?? '', message);
    },
  };
}
