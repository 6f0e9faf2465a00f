/**
 * prioritylevelconfigurations.flowcontrol.apiserver.k8s.io (upstream
 * pkg/registry/flowcontrol/prioritylevelconfiguration, release-1.27): cluster scoped, stored as
 * v1beta3 and served at v1beta2 (whose limited levels say `assuredConcurrencyShares`) and v1beta3.
 * Create resets the status and sets generation 1; an update keeps the stored status and bumps the
 * generation when the spec changes; /status writes only the status. Validation names the shares
 * field as the request's version spells it.
 */
import {
  priorityLevelConfigurationToV1beta2,
  priorityLevelConfigurationToV1beta3,
} from '../../../apis/flowcontrol/conversion.js';
import {
  priorityLevelConfigurationV1beta2Info,
  priorityLevelConfigurationV1beta3Info,
} from '../../../apis/flowcontrol/resources.js';
import {
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatusUpdate,
} from '../../../apis/flowcontrol/validation.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import type { RegistryResource } from '../../resource.js';
import { priorityLevelConfigurationTable } from '../../printers/prioritylevelconfiguration.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { storageVersionOf } from '../../versioned-store.js';

/** The version of the request (the storage version's when none is given). */
function requestVersion(ctx: StrategyContext): string | undefined {
  const v = ctx.requestVersion;
  return v !== undefined && v.group === priorityLevelConfigurationV1beta3Info.group ? v.version : undefined;
}

const strategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  tracksGeneration: true,
  validate: (ctx, plc) => validatePriorityLevelConfiguration(plc, requestVersion(ctx)),
  validateUpdate: (ctx, plc) => validatePriorityLevelConfiguration(plc, requestVersion(ctx)),
});

export const priorityLevelConfigurations: RegistryResource = {
  info: priorityLevelConfigurationV1beta3Info,
  servedVersions: [
    {
      info: priorityLevelConfigurationV1beta2Info,
      toStorage: priorityLevelConfigurationToV1beta3,
      fromStorage: priorityLevelConfigurationToV1beta2,
    },
    storageVersionOf(priorityLevelConfigurationV1beta3Info),
  ],
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, plc) => validatePriorityLevelConfigurationStatusUpdate(plc),
    // Upstream keeps the whole stored ObjectMeta but managedFields.
    metadata: 'stored',
  }),
  table: priorityLevelConfigurationTable,
};
