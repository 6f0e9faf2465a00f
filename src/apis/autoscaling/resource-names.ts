/**
 * Upstream's ValidateContainerResourceName (pkg/apis/core/v1/validation), which a ContainerResource
 * metric's resource name must pass: a qualified name that is a standard resource or fully
 * qualified, a container resource when unprefixed, and native or extended when prefixed.
 */
import { fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../machinery/field/errors.js';
import { isQualifiedName } from '../../machinery/validation/names.js';

const standardResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'quotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

function isStandardResourceName(name: string): boolean {
  return (
    standardResources.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')
  );
}

function isStandardContainerResourceName(name: string): boolean {
  return standardContainerResources.has(name) || name.startsWith('hugepages-');
}

/** Unprefixed, or in a kubernetes.io domain. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  // The quota name `requests.<name>` must be a qualified name too.
  return isQualifiedName(`requests.${name}`).length === 0;
}

function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) {
      errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}
