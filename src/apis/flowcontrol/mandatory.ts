/**
 * The specs of the mandatory objects (upstream pkg/apis/flowcontrol/bootstrap, as internalbootstrap
 * holds them after defaulting), in v1beta3 JSON: validation requires an object of one of these
 * names to carry exactly this spec. Creating the objects at start-up is not done here.
 */
import type { JsonObject } from '../../util/json.js';
import { catchAllName, exemptName, wildcard } from './constants.js';

/** Every verb on every resource everywhere, and every non-resource URL. */
function everything(subjects: JsonObject[]): JsonObject {
  return {
    subjects,
    resourceRules: [
      {
        verbs: [wildcard],
        apiGroups: [wildcard],
        resources: [wildcard],
        clusterScope: true,
        namespaces: [wildcard],
      },
    ],
    nonResourceRules: [{ verbs: [wildcard], nonResourceURLs: [wildcard] }],
  };
}

const group = (name: string): JsonObject => ({ kind: 'Group', group: { name } });

export function mandatoryFlowSchemaSpec(name: string): JsonObject | undefined {
  switch (name) {
    case exemptName:
      return {
        priorityLevelConfiguration: { name: exemptName },
        matchingPrecedence: 1,
        rules: [everything([group('system:masters')])],
      };
    case catchAllName:
      return {
        priorityLevelConfiguration: { name: catchAllName },
        matchingPrecedence: 10000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [everything([group('system:unauthenticated'), group('system:authenticated')])],
      };
    default:
      return undefined;
  }
}

export function mandatoryPriorityLevelConfigurationSpec(name: string): JsonObject | undefined {
  switch (name) {
    case exemptName:
      return { type: 'Exempt' };
    case catchAllName:
      return {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
      };
    default:
      return undefined;
  }
}
