/**
 * ipaddresses.networking.k8s.io (v1alpha1, gate MultiCIDRServiceAllocator): cluster-scoped, no
 * status, no generation (upstream pkg/registry/networking/ipaddress/strategy.go). The name is the
 * IP itself: path-segment rules here, the canonical-IP check in validation.
 */
import { ipAddressInfo } from '../../../apis/networking/v1alpha1/resources.js';
import { validateIPAddress, validateIPAddressUpdate } from '../../../apis/networking/v1alpha1/validation.js';
import type { RegistryResource } from '../../resource.js';
import { ipAddressTable } from '../../printers/ipaddress.js';
import { defineStrategy } from '../../strategies/base.js';

export const ipAddresses: RegistryResource = {
  info: ipAddressInfo,
  featureGate: 'MultiCIDRServiceAllocator',
  strategy: defineStrategy({
    namespaced: false,
    nameValidation: 'pathSegment',
    validate: (_ctx, obj) => validateIPAddress(obj),
    // Upstream validates the object again, then the update.
    validateUpdate: (_ctx, obj, old) => [...validateIPAddress(obj), ...validateIPAddressUpdate(obj, old)],
  }),
  table: ipAddressTable,
};
