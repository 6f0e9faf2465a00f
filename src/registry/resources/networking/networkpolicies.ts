/**
 * networkpolicies.networking.k8s.io (upstream pkg/registry/networking/networkpolicy/strategy.go)
 * with the alpha NetworkPolicyStatus gate off, as v1.27 runs by default: no /status subresource,
 * a status sent on create is kept, and an update keeps the stored status only once it has
 * conditions. A spec change bumps the generation.
 */
import { networkPolicyInfo } from '../../../apis/networking/v1/resources.js';
import {
  validateNetworkPolicy,
  validateNetworkPolicyUpdate,
} from '../../../apis/networking/v1/validation/networkpolicy.js';
import { isJsonObject } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { networkPolicyTable } from '../../printers/networkpolicy.js';
import { defineStrategy } from '../../strategies/base.js';

function hasConditions(status: unknown): boolean {
  if (!isJsonObject(status)) return false;
  const conditions = status['conditions'];
  return Array.isArray(conditions) && conditions.length > 0;
}

export const networkPolicies: RegistryResource = {
  info: networkPolicyInfo,
  strategy: defineStrategy({
    namespaced: true,
    tracksGeneration: true,
    validate: (_ctx, obj) => validateNetworkPolicy(obj),
    validateUpdate: (_ctx, obj, old) => validateNetworkPolicyUpdate(obj, old),
    prepareForUpdate(_ctx, obj, old) {
      const status = old['status'];
      if (status !== undefined && hasConditions(status)) obj['status'] = status;
    },
  }),
  table: networkPolicyTable,
};
