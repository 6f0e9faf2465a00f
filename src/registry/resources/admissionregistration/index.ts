/**
 * admissionregistration.k8s.io resources. v1 (webhook configurations) is served by default;
 * v1alpha1 (ValidatingAdmissionPolicy and its binding) only when enabled with --runtime-config and
 * the ValidatingAdmissionPolicy gate, so it is exported separately.
 */
import type { RegistryResource } from '../../resource.js';
import {
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
} from './validatingadmissionpolicies.js';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhookconfigurations.js';

export const admissionregistrationV1Resources: readonly RegistryResource[] = [
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
];

export const admissionregistrationV1alpha1Resources: readonly RegistryResource[] = [
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
].map((r) => ({ ...r, featureGate: 'ValidatingAdmissionPolicy' }));
