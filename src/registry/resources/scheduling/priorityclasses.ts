/**
 * priorityclasses.scheduling.k8s.io (upstream pkg/registry/scheduling/priorityclass): cluster
 * scoped, generation 1 from creation on and never bumped, no status. The two system classes
 * cannot be deleted (upstream's REST.Delete).
 */
import { priorityClassInfo } from '../../../apis/scheduling/v1/resources.js';
import { systemPriorityClassList } from '../../../apis/scheduling/v1/system.js';
import {
  validatePriorityClass,
  validatePriorityClassUpdate,
} from '../../../apis/scheduling/v1/validation.js';
import { apiErrors } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { RegistryResource } from '../../resource.js';
import { priorityClassTable } from '../../printers/priorityclass.js';
import { defineStrategy } from '../../strategies/base.js';

/**
 * Upstream refuses to delete a system priority class before touching storage. RegistryResource has
 * no delete guard, so this runs where the store asks whether a deletion is pending (every single
 * delete asks, before admission and before anything is written) and answers with upstream's 403.
 */
function refuseSystemClassDeletion(obj: KubeObject): boolean {
  const name = obj.metadata.name ?? '';
  if (systemPriorityClassList.some((c) => c.name === name)) {
    throw apiErrors.forbidden(
      { group: priorityClassInfo.group, resource: priorityClassInfo.resource },
      name,
      'this is a system priority class and cannot be deleted',
    );
  }
  return false;
}

export const priorityClasses: RegistryResource = {
  info: priorityClassInfo,
  strategy: defineStrategy({
    namespaced: false,
    prepareForCreate: (_ctx, pc) => {
      pc.metadata.generation = 1;
    },
    validate: (_ctx, pc) => validatePriorityClass(pc),
    validateUpdate: (_ctx, pc, old) => validatePriorityClassUpdate(pc, old),
  }),
  table: priorityClassTable,
  deletionPending: refuseSystemClassDeletion,
};
