/**
 * admissionregistration.k8s.io/v1alpha1 resources as kube-apiserver v1.27 discovers them when the
 * group-version is enabled (--runtime-config) with the ValidatingAdmissionPolicy gate. v1.27 has
 * them only at v1alpha1, so that is also their storage version.
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';
import { defaultValidatingAdmissionPolicy, defaultValidatingAdmissionPolicyBinding } from './defaults.js';

const base = {
  group: 'admissionregistration.k8s.io',
  version: 'v1alpha1',
  verbs: allVerbs,
  namespaced: false,
  categories: ['api-extensions'],
} as const;

export const validatingAdmissionPolicyInfo: ResourceInfo = {
  ...base,
  kind: 'ValidatingAdmissionPolicy',
  resource: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  definition: 'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicy',
  statusSubresource: true,
  defaulter: defaultValidatingAdmissionPolicy,
};

export const validatingAdmissionPolicyBindingInfo: ResourceInfo = {
  ...base,
  kind: 'ValidatingAdmissionPolicyBinding',
  resource: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  definition: 'io.k8s.api.admissionregistration.v1alpha1.ValidatingAdmissionPolicyBinding',
  defaulter: defaultValidatingAdmissionPolicyBinding,
};

export const admissionregistrationV1alpha1ResourceInfos: readonly ResourceInfo[] = [
  validatingAdmissionPolicyInfo,
  validatingAdmissionPolicyBindingInfo,
];
