/**
 * validatingadmissionpolicies (+/status) and validatingadmissionpolicybindings
 * (admissionregistration.k8s.io/v1alpha1; upstream pkg/registry/admissionregistration/validatingadmissionpolicy and
 * validatingadmissionpolicybinding strategies, v1.27): cluster-scoped, a spec change bumps the
 * generation, updates need a resourceVersion. The policy's status (typeChecking, conditions,
 * observedGeneration) is written only through /status, by a controller.
 *
 * Not done: upstream also authorizes the requester to read the policy's paramKind (and the
 * binding's paramRef) resource after validation passes; nanokube's strategies have no authorizer.
 */
import {
  validatingAdmissionPolicyBindingInfo,
  validatingAdmissionPolicyInfo,
} from '../../../apis/admissionregistration/v1alpha1/resources.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
  validateValidatingAdmissionPolicyUpdate,
} from '../../../apis/admissionregistration/validation/policy.js';
import type { RegistryResource } from '../../resource.js';
import {
  validatingAdmissionPolicyBindingTable,
  validatingAdmissionPolicyTable,
} from '../../printers/validatingadmissionpolicy.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { celAdmissionPending } from '../../../cel/admission/load.js';
import { compileExpression } from './expression-compiler.js';

const policyStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  tracksGeneration: true,
  allowUnconditionalUpdate: false,
  loadValidation: celAdmissionPending,
  validate: (_ctx, obj) => validateValidatingAdmissionPolicy(obj, compileExpression),
  validateUpdate: (_ctx, obj, old) => validateValidatingAdmissionPolicyUpdate(obj, old, compileExpression),
});

export const validatingAdmissionPolicies: RegistryResource = {
  info: validatingAdmissionPolicyInfo,
  strategy: policyStrategy,
  statusStrategy: defineStatusStrategy(policyStrategy, {
    validateUpdate: (_ctx, obj) => validateValidatingAdmissionPolicyStatus(obj),
    metadata: 'reset',
  }),
  table: validatingAdmissionPolicyTable,
};

export const validatingAdmissionPolicyBindings: RegistryResource = {
  info: validatingAdmissionPolicyBindingInfo,
  strategy: defineStrategy({
    namespaced: false,
    tracksGeneration: true,
    allowUnconditionalUpdate: false,
    validate: (_ctx, obj) => validateValidatingAdmissionPolicyBinding(obj),
    validateUpdate: (_ctx, obj) => validateValidatingAdmissionPolicyBinding(obj),
  }),
  table: validatingAdmissionPolicyBindingTable,
};
