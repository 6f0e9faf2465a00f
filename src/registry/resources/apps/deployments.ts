/** deployments.apps: the Deployment strategy (upstream pkg/registry/apps/deployment/strategy.go). */
import { specTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { deploymentInfo } from '../../../apis/apps/v1/resources.js';
import { validateDeployment, validateDeploymentUpdate } from '../../../apis/apps/v1/validation/deployment.js';
import { semanticEqual } from '../../../apis/apps/v1/validation/semantic.js';
import { validateAppsStatusUpdate } from '../../../apis/apps/v1/validation/status.js';
import type { RegistryResource } from '../../resource.js';
import { deploymentTable } from '../../printers/deployment.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { podNameWarnings } from '../../strategies/workload-warnings.js';

const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  warningsOnCreate: (_ctx, o) => [...podNameWarnings(o), ...specTemplateWarnings(o)],
  warningsOnUpdate: (_ctx, o, old) =>
    o.metadata.generation !== old.metadata.generation ? specTemplateWarnings(o) : [],
  prepareForUpdate(_ctx, obj, old) {
    // Annotations are copied to the ReplicaSets, so changing them is a new generation too.
    const oldGen = old.metadata.generation ?? 0;
    if (
      obj.metadata.generation === oldGen &&
      !semanticEqual(obj.metadata.annotations, old.metadata.annotations)
    ) {
      obj.metadata.generation = oldGen + 1;
    }
  },
});

export const deployments: RegistryResource = {
  info: deploymentInfo,
  strategy,
  table: deploymentTable,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateAppsStatusUpdate('Deployment', obj, old),
    // Upstream's deployment status strategy resets the labels (only).
    metadata: ['labels'],
  }),
};
