/** admissionregistration.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultMutatingWebhookConfiguration, defaultValidatingWebhookConfiguration } from './defaults.js';

const base = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  verbs: allVerbs,
  namespaced: false,
  categories: ['api-extensions'],
} as const;

export const mutatingWebhookConfigurationInfo: ResourceInfo = {
  ...base,
  kind: 'MutatingWebhookConfiguration',
  resource: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  definition: 'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration',
  defaulter: defaultMutatingWebhookConfiguration,
};

export const validatingWebhookConfigurationInfo: ResourceInfo = {
  ...base,
  kind: 'ValidatingWebhookConfiguration',
  resource: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  definition: 'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration',
  defaulter: defaultValidatingWebhookConfiguration,
};

export const admissionregistrationV1ResourceInfos: readonly ResourceInfo[] = [
  mutatingWebhookConfigurationInfo,
  validatingWebhookConfigurationInfo,
];
