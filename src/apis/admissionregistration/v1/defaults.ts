/**
 * admissionregistration.k8s.io/v1 defaults (upstream pkg/apis/admissionregistration/v1/defaults.go
 * and its generated walk), in place. v1 sets no sideEffects or admissionReviewVersions: both are
 * required.
 */
import type { JsonObject } from '../../../util/json.js';
import { obj, objArr, setDefault } from '../../core/v1/access.js';

/** SetDefaults_Rule: a rule without a scope matches every scope. */
export function defaultRule(rule: JsonObject): void {
  setDefault(rule, 'scope', '*');
}

/** SetDefaults_ValidatingWebhook (and the mutating one's common part), then the nested defaults. */
function defaultWebhook(hook: JsonObject, mutating: boolean): void {
  setDefault(hook, 'failurePolicy', 'Fail');
  setDefault(hook, 'matchPolicy', 'Equivalent');
  setDefault(hook, 'namespaceSelector', {});
  setDefault(hook, 'objectSelector', {});
  setDefault(hook, 'timeoutSeconds', 10);
  if (mutating) setDefault(hook, 'reinvocationPolicy', 'Never');
  // SetDefaults_ServiceReference: a service without a port is reached on 443.
  const service = obj(obj(hook, 'clientConfig'), 'service');
  if (service !== undefined) setDefault(service, 'port', 443);
  for (const rule of objArr(hook, 'rules')) defaultRule(rule);
}

export function defaultValidatingWebhookConfiguration(o: JsonObject): void {
  for (const hook of objArr(o, 'webhooks')) defaultWebhook(hook, false);
}

export function defaultMutatingWebhookConfiguration(o: JsonObject): void {
  for (const hook of objArr(o, 'webhooks')) defaultWebhook(hook, true);
}
