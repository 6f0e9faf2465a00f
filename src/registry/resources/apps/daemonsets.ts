/** daemonsets.apps: the DaemonSet strategy (upstream pkg/registry/apps/daemonset/strategy.go). */
import { specTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { daemonSetInfo } from '../../../apis/apps/v1/resources.js';
import {
  templateGeneration,
  templateGenerationAnnotation,
  validateDaemonSet,
  validateDaemonSetUpdate,
} from '../../../apis/apps/v1/validation/daemonset.js';
import { semanticEqual } from '../../../apis/apps/v1/validation/semantic.js';
import { validateAppsStatusUpdate } from '../../../apis/apps/v1/validation/status.js';
import { obj } from '../../../apis/core/v1/access.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonValue } from '../../../util/json.js';
import type { RegistryResource } from '../../resource.js';
import { daemonSetTable } from '../../printers/daemonset.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';

function setTemplateGeneration(obj: KubeObject, gen: number): void {
  obj.metadata.annotations = {
    ...(obj.metadata.annotations ?? {}),
    [templateGenerationAnnotation]: String(gen),
  };
}

function template(o: KubeObject): JsonValue | undefined {
  return obj(o, 'spec')?.['template'];
}

/**
 * The internal spec.templateGeneration travels as the `deprecated.daemonset.template.generation`
 * annotation: 1 on create, kept on update, and bumped (with generation) when the template changes.
 */
const strategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
  warningsOnCreate: (_ctx, obj) => specTemplateWarnings(obj),
  // Upstream compares spec.templateGeneration here, not metadata.generation.
  warningsOnUpdate: (_ctx, obj, old) =>
    templateGeneration(obj) !== templateGeneration(old) ? specTemplateWarnings(obj) : [],
  prepareForCreate(_ctx, obj) {
    if (templateGeneration(obj) < 1) setTemplateGeneration(obj, 1);
  },
  prepareForUpdate(_ctx, obj, old) {
    const oldTemplateGen = templateGeneration(old);
    const changed = !semanticEqual(template(obj), template(old));
    setTemplateGeneration(obj, changed ? oldTemplateGen + 1 : oldTemplateGen);
  },
});

export const daemonSets: RegistryResource = {
  info: daemonSetInfo,
  strategy,
  table: daemonSetTable,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, obj, old) => validateAppsStatusUpdate('DaemonSet', obj, old),
  }),
};
