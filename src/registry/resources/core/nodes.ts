/** nodes (upstream pkg/registry/core/node): status may be set on create, not on update. */
import { bool, obj } from '../../../apis/core/v1/access.js';
import { nodesInfo } from '../../../apis/core/v1/resources.js';
import { validateNode, validateNodeUpdate } from '../../../apis/core/v1/validation/node.js';
import { nodeTable } from '../../printers/node.js';
import type { RegistryResource } from '../../resource.js';
import { defineStatusStrategy, defineStrategy } from '../../strategies/base.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

const strategy = defineStrategy({
  namespaced: false,
  prepareForUpdate(_ctx, node, old) {
    if (old['status'] === undefined) delete node['status'];
    else node['status'] = old['status'];
  },
  validate: (_ctx, node) => validateNode(node),
  validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
});

export const nodesResource: RegistryResource = {
  info: nodesInfo,
  strategy,
  statusStrategy: defineStatusStrategy(strategy, {
    validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
  }),
  table: nodeTable,
  fieldLabels: fieldLabelConversion(['metadata.name', 'spec.unschedulable']),
  selectableFields: (node) => ({
    'spec.unschedulable': String(bool(obj(node, 'spec'), 'unschedulable') ?? false),
  }),
};
