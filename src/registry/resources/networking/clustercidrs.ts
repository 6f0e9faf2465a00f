/**
 * clustercidrs.networking.k8s.io (v1alpha1, gate MultiCIDRRangeAllocator): cluster-scoped, names
 * are DNS-1123 labels, the spec is immutable, no status and no generation (upstream
 * pkg/registry/networking/clustercidr/strategy.go).
 */
import { clusterCIDRInfo } from '../../../apis/networking/v1alpha1/resources.js';
import {
  validateClusterCIDR,
  validateClusterCIDRUpdate,
} from '../../../apis/networking/v1alpha1/validation.js';
import type { RegistryResource } from '../../resource.js';
import { clusterCIDRTable } from '../../printers/clustercidr.js';
import { defineStrategy } from '../../strategies/base.js';

export const clusterCIDRs: RegistryResource = {
  info: clusterCIDRInfo,
  featureGate: 'MultiCIDRRangeAllocator',
  strategy: defineStrategy({
    namespaced: false,
    nameValidation: 'dns1123Label',
    validate: (_ctx, obj) => validateClusterCIDR(obj),
    validateUpdate: (_ctx, obj, old) => [...validateClusterCIDR(obj), ...validateClusterCIDRUpdate(obj, old)],
  }),
  table: clusterCIDRTable,
};
