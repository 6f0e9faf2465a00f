/**
 * clustertrustbundles.certificates.k8s.io (upstream pkg/registry/certificates/clustertrustbundle):
 * cluster scoped, no status, updates must name a resourceVersion (AllowUnconditionalUpdate false),
 * selectable on spec.signerName. Served only with the ClusterTrustBundle gate and runtime-config;
 * the caller decides whether to serve it.
 */
import { clusterTrustBundleInfo } from '../../../apis/certificates/v1alpha1/resources.js';
import {
  validateClusterTrustBundle,
  validateClusterTrustBundleUpdate,
} from '../../../apis/certificates/v1alpha1/validation.js';
import { obj, str } from '../../../apis/core/v1/access.js';
import { clusterTrustBundleTable } from '../../printers/clustertrustbundle.js';
import type { RegistryResource } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';

export const clusterTrustBundles: RegistryResource = {
  info: clusterTrustBundleInfo,
  featureGate: 'ClusterTrustBundle',
  strategy: defineStrategy({
    namespaced: false,
    // The name rule depends on spec.signerName and is checked by validation.
    nameValidation: 'pathSegment',
    allowUnconditionalUpdate: false,
    validate: (_ctx, b) => validateClusterTrustBundle(b),
    validateUpdate: (_ctx, b, old) => validateClusterTrustBundleUpdate(b, old),
  }),
  table: clusterTrustBundleTable,
  fieldLabels: fieldLabelConversion(['metadata.name', 'spec.signerName']),
  selectableFields: (b) => ({ 'spec.signerName': str(obj(b, 'spec'), 'signerName') ?? '' }),
};
