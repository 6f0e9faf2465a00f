/**
 * The plugin's configuration as kube-apiserver loads it at start (upstream newPlugin, then
 * ValidateInitialization's CompleteConfiguration and ValidateConfiguration): decoded, the default
 * policy derived from it, then validated. A bad configuration throws an Error with upstream's
 * message, and the server refuses to start.
 */
import type { JsonValue } from '../../util/json.js';
import { decodePodSecurityConfiguration, type PodSecurityConfiguration } from './configuration.js';
import { toPolicy, validatePodSecurityConfiguration } from './configuration-validation.js';
import type { Policy } from './policy.js';
import { aggregateMessage } from './policy-to-evaluate.js';

export interface LoadedPodSecurityConfiguration {
  readonly configuration: PodSecurityConfiguration;
  readonly defaultPolicy: Policy;
}

export function loadPodSecurityConfiguration(value: JsonValue | undefined): LoadedPodSecurityConfiguration {
  const configuration = decodePodSecurityConfiguration(value);
  const { policy, errors } = toPolicy(configuration.defaults);
  if (errors.length > 0) throw new Error(`PodSecurity configuration error: ${aggregateMessage(errors)}`);
  const invalid = validatePodSecurityConfiguration(configuration);
  if (invalid.length > 0) {
    throw new Error(`PodSecurity invalid: ${aggregateMessage(invalid.map((e) => e.toString()))}`);
  }
  return { configuration, defaultPolicy: policy };
}
