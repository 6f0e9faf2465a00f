/** podtemplates (upstream pkg/registry/core/podtemplate): generation follows template changes. */
import { obj } from '../../../apis/core/v1/access.js';
import { podTemplateWarnings } from '../../../apis/core/v1/pod-warnings.js';
import { podTemplatesInfo } from '../../../apis/core/v1/resources-more.js';
import { validatePodTemplate } from '../../../apis/core/v1/validation/replicationcontroller.js';
import { podTemplateTable } from '../../printers/podtemplate.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export const podTemplatesResource: RegistryResource = {
  returnDeletedObject: true,
  info: podTemplatesInfo,
  strategy: defineStrategy({
    namespaced: true,
    tracksGeneration: true,
    validate: validatePodTemplate,
    validateUpdate: (ctx, pt) => validatePodTemplate(ctx, pt),
    warningsOnCreate: (_ctx, pt) => podTemplateWarnings('template', obj(pt, 'template')),
    warningsOnUpdate: (_ctx, pt, old) =>
      pt.metadata.generation !== old.metadata.generation
        ? podTemplateWarnings('template', obj(pt, 'template'))
        : [],
  }),
  table: podTemplateTable,
};
