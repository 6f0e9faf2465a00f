/**
 * Helpers of pkg/apis/core/validation and pkg/api/node the storage kinds use (v1.27), and the Go
 * `%#v` renderings of the structs their immutability errors print.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { v127Gates } from '../../../../machinery/features.js';
import type { FeatureGateReader } from '../../../../machinery/validation-context.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../../machinery/validation/names.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { isJsonObject } from '../../../../util/json.js';
import { invalidEach } from '../../../core/v1/validation/common.js';

/** Pointer addresses cannot match upstream's (they differ per process); a fixed one stands in. */
export const fakePointer = '0xc000010000';

export const seLinuxMountGate = 'SELinuxMountReadWriteOncePod';

/**
 * SELinuxMountReadWriteOncePod (beta, on by default in v1.27). Until the gate table lists it, its
 * v1.27 default applies.
 */
export function seLinuxMountEnabled(features: FeatureGateReader): boolean {
  return Object.hasOwn(v127Gates, seLinuxMountGate) ? features.enabled(seLinuxMountGate) : true;
}

/** Go's `len(s)`: the UTF-8 byte length. */
export function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Core ValidateCSIDriverName: required, at most 63 bytes, and a DNS subdomain once lower-cased
 * (the original value is reported).
 */
export function validateCSIDriverName(name: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(fieldErrors.required(path, ''));
  if (byteLen(name) > 63) errs.push(fieldErrors.tooLong(path, name, 63));
  errs.push(...invalidEach(path, name, isDNS1123Subdomain(name.toLowerCase())));
  return errs;
}

/** metav1 ValidateLabelName: a qualified name. */
export function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return invalidEach(path, name, isQualifiedName(name));
}

const deprecatedNodeLabels: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region':
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone':
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type':
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** pkg/api/node GetNodeLabelDeprecatedMessage. */
export function nodeLabelDeprecatedMessage(key: string): string | undefined {
  return Object.hasOwn(deprecatedNodeLabels, key) ? deprecatedNodeLabels[key] : undefined;
}

/**
 * pkg/api/node GetWarningsForNodeSelector: deprecated node labels in a label selector's
 * matchExpressions, then its matchLabels (Go visits a map in random order; keys are sorted here).
 */
export function warningsForNodeSelector(sel: JsonObject | undefined, path: FieldPath): string[] {
  if (sel === undefined) return [];
  const warnings: string[] = [];
  const exprs = sel['matchExpressions'];
  if (Array.isArray(exprs)) {
    exprs.forEach((e, i) => {
      const key = isJsonObject(e) && typeof e['key'] === 'string' ? e['key'] : '';
      const msg = nodeLabelDeprecatedMessage(key);
      if (msg !== undefined) {
        warnings.push(`${path.child('matchExpressions').index(i).child('key').toString()}: ${key} is ${msg}`);
      }
    });
  }
  const labels = sel['matchLabels'];
  if (isJsonObject(labels)) {
    for (const label of Object.keys(labels).sort()) {
      const msg = nodeLabelDeprecatedMessage(label);
      if (msg !== undefined) warnings.push(`${path.child('matchLabels', label).toString()}: ${msg}`);
    }
  }
  return warnings;
}

/** Go `%#v` of a string slice of a named type: `[]pkg.T{"a", "b"}`, `[]pkg.T(nil)` when absent. */
export function goSlice(type: string, v: JsonValue | undefined): string {
  if (!Array.isArray(v)) return `[]${type}(nil)`;
  return `[]${type}{${v.map((x) => goQuote(typeof x === 'string' ? x : '')).join(', ')}}`;
}

/** Go `%#v` of a `map[string]string` (keys sorted, as fmt prints maps). */
export function goStringMap(v: JsonValue | undefined): string {
  if (!isJsonObject(v)) return 'map[string]string(nil)';
  const entries = Object.keys(v)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(typeof v[k] === 'string' ? v[k] : '')}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** Go `%#v` of a pointer field: a fixed address when set, `(*T)(nil)` otherwise. */
export function goPointer(type: string, v: JsonValue | undefined): string {
  return `(*${type})(${v === undefined || v === null ? 'nil' : fakePointer})`;
}

export { FieldPath };
