/**
 * poddisruptionbudgets.policy (upstream pkg/registry/policy/poddisruptionbudget): status reset on
 * create and kept on update, generation bumped by spec changes, updates need a resourceVersion.
 * Names are only checked as path segments (upstream validates no ObjectMeta of its own here).
 */
import { podDisruptionBudgetInfo } from '../../../apis/policy/v1/resources.js';
import {
  hasInvalidLabelValueInLabelSelector,
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatusUpdate,
} from '../../../apis/policy/v1/validation.js';
import { obj } from '../../../apis/core/v1/access.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { RegistryResource } from '../../resource.js';
import type { RESTStrategy, StrategyContext } from '../../strategy.js';
import { podDisruptionBudgetTable } from '../../printers/poddisruptionbudget.js';
import { defineStrategy, zeroStatus } from '../../strategies/base.js';

/**
 * The beta gate (on by default in v1.27) that lets spec.unhealthyPodEvictionPolicy be set. The
 * shared gate list does not name it yet, so until it does the gate reads as off.
 */
export const pdbUnhealthyPodEvictionPolicyGate = 'PDBUnhealthyPodEvictionPolicy';

/** Upstream dropDisabledFields: a disabled gate drops the field unless the stored object uses it. */
function dropDisabledFields(ctx: StrategyContext, pdb: KubeObject, old: KubeObject | undefined): void {
  if (ctx.features.enabled(pdbUnhealthyPodEvictionPolicyGate)) return;
  const oldPolicy = obj(old, 'spec')?.['unhealthyPodEvictionPolicy'];
  if (oldPolicy !== undefined && oldPolicy !== null) return;
  const spec = obj(pdb, 'spec');
  if (spec !== undefined) delete spec['unhealthyPodEvictionPolicy'];
}

const strategy = defineStrategy({
  namespaced: true,
  nameValidation: 'pathSegment',
  hasStatus: true,
  tracksGeneration: true,
  allowUnconditionalUpdate: false,
  // The base bumps the generation first; upstream also compares before dropping fields.
  prepareForCreate: (ctx, pdb) => dropDisabledFields(ctx, pdb, undefined),
  prepareForUpdate: (ctx, pdb, old) => dropDisabledFields(ctx, pdb, old),
  validate: (_ctx, pdb) => validatePodDisruptionBudget(pdb, { allowInvalidLabelValueInSelector: false }),
  validateUpdate: (_ctx, pdb, old) =>
    validatePodDisruptionBudget(pdb, {
      allowInvalidLabelValueInSelector: hasInvalidLabelValueInLabelSelector(old),
    }),
});

/**
 * The /status strategy: only the spec is restored from the stored object; metadata changes made
 * through /status are kept, as upstream's PodDisruptionBudget status strategy does.
 */
const statusStrategy: RESTStrategy = {
  ...strategy,
  prepareForCreate() {},
  prepareForUpdate(_ctx, pdb, old) {
    const spec = old['spec'];
    if (spec === undefined) delete pdb['spec'];
    else pdb['spec'] = spec;
    // A request without a status writes the zero status (its counts print as 0).
    if (pdb['status'] === undefined || pdb['status'] === null) pdb['status'] = zeroStatus(pdb);
  },
  validateUpdate: (_ctx, pdb) => validatePodDisruptionBudgetStatusUpdate(pdb),
  warningsOnUpdate: () => [],
};

export const podDisruptionBudgets: RegistryResource = {
  info: podDisruptionBudgetInfo,
  strategy,
  statusStrategy,
  table: podDisruptionBudgetTable,
};
