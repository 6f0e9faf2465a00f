/**
 * validatingwebhookconfigurations and mutatingwebhookconfigurations (admissionregistration.k8s.io/v1;
 * upstream pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration): cluster-scoped, no
 * status, a change to the webhooks bumps the generation, updates need a resourceVersion, and the
 * alpha AdmissionWebhookMatchConditions gate decides whether match conditions are kept.
 */
import {
  mutatingWebhookConfigurationInfo,
  validatingWebhookConfigurationInfo,
} from '../../../apis/admissionregistration/v1/resources.js';
import {
  dropDisabledWebhookFields,
  validateWebhookConfiguration,
  validateWebhookConfigurationUpdate,
} from '../../../apis/admissionregistration/validation/webhooks.js';
import type { WebhookKind } from '../../../apis/admissionregistration/validation/webhooks.js';
import type { RegistryResource } from '../../resource.js';
import { webhookConfigurationTable } from '../../printers/webhookconfiguration.js';
import { defineStrategy } from '../../strategies/base.js';
import { celAdmissionPending } from '../../../cel/admission/load.js';
import { compileExpression } from './expression-compiler.js';
import type { RESTStrategy } from '../../strategy.js';

const matchConditionsGate = 'AdmissionWebhookMatchConditions';

function webhookStrategy(kind: WebhookKind): RESTStrategy {
  const base = defineStrategy({
    namespaced: false,
    tracksGeneration: true,
    allowUnconditionalUpdate: false,
    loadValidation: celAdmissionPending,
    validate: (_ctx, obj) => validateWebhookConfiguration(kind, obj, compileExpression),
    validateUpdate: (_ctx, obj, old) => validateWebhookConfigurationUpdate(kind, obj, old, compileExpression),
  });
  return {
    ...base,
    prepareForCreate(ctx, obj) {
      base.prepareForCreate(ctx, obj);
      dropDisabledWebhookFields(ctx.features.enabled(matchConditionsGate), obj, undefined);
    },
    // Fields are dropped before the webhooks are compared for the generation, as upstream.
    prepareForUpdate(ctx, obj, old) {
      dropDisabledWebhookFields(ctx.features.enabled(matchConditionsGate), obj, old);
      base.prepareForUpdate(ctx, obj, old);
    },
  };
}

export const validatingWebhookConfigurations: RegistryResource = {
  info: validatingWebhookConfigurationInfo,
  strategy: webhookStrategy('validating'),
  table: webhookConfigurationTable,
};

export const mutatingWebhookConfigurations: RegistryResource = {
  info: mutatingWebhookConfigurationInfo,
  strategy: webhookStrategy('mutating'),
  table: webhookConfigurationTable,
};
