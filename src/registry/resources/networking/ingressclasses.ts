/** ingressclasses.networking.k8s.io: cluster-scoped, no status; a spec change bumps the generation. */
import { ingressClassInfo } from '../../../apis/networking/v1/resources.js';
import {
  validateIngressClass,
  validateIngressClassUpdate,
} from '../../../apis/networking/v1/validation/ingressclass.js';
import type { RegistryResource } from '../../resource.js';
import { ingressClassTable } from '../../printers/ingressclass.js';
import { defineStrategy } from '../../strategies/base.js';

export const ingressClasses: RegistryResource = {
  info: ingressClassInfo,
  strategy: defineStrategy({
    namespaced: false,
    tracksGeneration: true,
    validate: (_ctx, obj) => validateIngressClass(obj),
    validateUpdate: (_ctx, obj, old) => validateIngressClassUpdate(obj, old),
  }),
  table: ingressClassTable,
};
