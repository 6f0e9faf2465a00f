/**
 * StorageClass validation as pkg/apis/storage/validation (release-1.27), on storage/v1 JSON.
 * metadata is validated by the generic store first (DNS subdomain names), as upstream's
 * ValidateObjectMeta call comes first.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { isJsonObject, jsonEqual } from '../../../../util/json.js';
import { indexedObjs, str, strArr } from '../../../core/v1/access.js';
import { validateQualifiedName } from '../../../core/v1/validation/common.js';
import { byteLen, nodeLabelDeprecatedMessage, validateLabelName } from './common.js';

const maxProvisionerParameterSize = 256 * (1 << 10);
const maxProvisionerParameterLen = 512;
const supportedReclaimPolicies = ['Delete', 'Retain'];
const supportedVolumeBindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** validateProvisioner: required, and a qualified name once lower-cased. */
function validateProvisioner(provisioner: string, path: FieldPath): FieldError[] {
  if (provisioner.length === 0) return [fieldErrors.required(path, '')];
  return validateQualifiedName(provisioner.toLowerCase(), path);
}

/** validateParameters: at most 512 entries, no empty key, at most 256 KiB of keys and values. */
function validateParameters(params: unknown, path: FieldPath): FieldError[] {
  if (!isJsonObject(params)) return [];
  const entries = Object.entries(params);
  if (entries.length > maxProvisionerParameterLen) {
    return [fieldErrors.tooLong(path, '', maxProvisionerParameterLen)];
  }
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of entries) {
    if (k.length === 0) errs.push(fieldErrors.invalid(path, k, 'field can not be empty.'));
    total += byteLen(k) + (typeof v === 'string' ? byteLen(v) : 0);
  }
  if (total > maxProvisionerParameterSize)
    errs.push(fieldErrors.tooLong(path, '', maxProvisionerParameterSize));
  return errs;
}

/** The values of one matchLabelExpressions requirement, as a set (for the duplicate term check). */
type TermMap = Map<string, Set<string>>;

function termMapsEqual(a: TermMap, b: TermMap): boolean {
  if (a.size !== b.size) return false;
  for (const [k, values] of a) {
    const other = b.get(k);
    if (other === undefined || other.size !== values.size) return false;
    for (const v of values) if (!other.has(v)) return false;
  }
  return true;
}

/** Core ValidateTopologySelectorTerm: each requirement, then no repeated key. */
function validateTopologySelectorTerm(term: JsonObject, path: FieldPath): [TermMap, FieldError[]] {
  const errs: FieldError[] = [];
  const exprs: TermMap = new Map();
  for (const [i, req] of indexedObjs(term, 'matchLabelExpressions')) {
    const p = path.child('matchLabelExpressions').index(i);
    const valuesPath = p.child('values');
    const values = strArr(req, 'values');
    if (values.length === 0) errs.push(fieldErrors.required(valuesPath, ''));
    const set = new Set<string>();
    values.forEach((v, j) => {
      if (set.has(v)) errs.push(fieldErrors.duplicate(valuesPath.index(j), v));
      set.add(v);
    });
    const key = str(req, 'key') ?? '';
    errs.push(...validateLabelName(key, p.child('key')));
    if (exprs.has(key)) errs.push(fieldErrors.duplicate(p.child('key'), key));
    exprs.set(key, set);
  }
  return [exprs, errs];
}

/**
 * validateAllowedTopologies: each term, and no term equal to an earlier one. Upstream compares
 * with a list that starts with one nil map per term, so a term without expressions is reported
 * once per term (and once per earlier empty term).
 */
function validateAllowedTopologies(sc: KubeObject, path: FieldPath): FieldError[] {
  const terms = indexedObjs(sc, 'allowedTopologies');
  if (terms.length === 0) return [];
  const errs: FieldError[] = [];
  const seen: TermMap[] = terms.map((): TermMap => new Map<string, Set<string>>());
  for (const [i, term] of terms) {
    const [exprs, termErrs] = validateTopologySelectorTerm(term, path.index(i));
    errs.push(...termErrs);
    for (const t of seen) {
      if (termMapsEqual(exprs, t)) {
        errs.push(fieldErrors.duplicate(path.index(i).child('matchLabelExpressions'), ''));
      }
    }
    seen.push(exprs);
  }
  return errs;
}

/** Upstream ValidateStorageClass, after ValidateObjectMeta. */
export function validateStorageClass(sc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateProvisioner(str(sc, 'provisioner') ?? '', FieldPath.root('provisioner')));
  errs.push(...validateParameters(sc['parameters'], FieldPath.root('parameters')));
  const reclaim = str(sc, 'reclaimPolicy') ?? '';
  if (reclaim.length > 0 && !supportedReclaimPolicies.includes(reclaim)) {
    errs.push(fieldErrors.notSupported(FieldPath.root('reclaimPolicy'), reclaim, supportedReclaimPolicies));
  }
  const mode = str(sc, 'volumeBindingMode');
  if (mode === undefined) errs.push(fieldErrors.required(FieldPath.root('volumeBindingMode'), ''));
  else if (!supportedVolumeBindingModes.includes(mode)) {
    errs.push(
      fieldErrors.notSupported(FieldPath.root('volumeBindingMode'), mode, supportedVolumeBindingModes),
    );
  }
  errs.push(...validateAllowedTopologies(sc, FieldPath.root('allowedTopologies')));
  return errs;
}

/**
 * Upstream ValidateStorageClassUpdate, after ValidateObjectMetaUpdate: parameters, provisioner and
 * reclaim policy may not change (Forbidden), the binding mode is immutable. `parameters: {}` and no
 * parameters differ, as Go's reflect.DeepEqual tells an empty map from a nil one.
 */
export function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!jsonEqual(sc['parameters'] ?? undefined, old['parameters'] ?? undefined)) {
    errs.push(fieldErrors.forbidden(FieldPath.root('parameters'), 'updates to parameters are forbidden.'));
  }
  if ((str(sc, 'provisioner') ?? '') !== (str(old, 'provisioner') ?? '')) {
    errs.push(fieldErrors.forbidden(FieldPath.root('provisioner'), 'updates to provisioner are forbidden.'));
  }
  if ((str(sc, 'reclaimPolicy') ?? '') !== (str(old, 'reclaimPolicy') ?? '')) {
    errs.push(
      fieldErrors.forbidden(FieldPath.root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'),
    );
  }
  const mode = str(sc, 'volumeBindingMode');
  if (mode !== str(old, 'volumeBindingMode')) {
    errs.push(fieldErrors.invalid(FieldPath.root('volumeBindingMode'), mode ?? null, fieldImmutableErrorMsg));
  }
  return errs;
}

/** pkg/api/storage GetWarningsForStorageClass: deprecated node labels in allowedTopologies. */
export function storageClassWarnings(sc: KubeObject): string[] {
  const warnings: string[] = [];
  for (const [i, term] of indexedObjs(sc, 'allowedTopologies')) {
    for (const [j, req] of indexedObjs(term, 'matchLabelExpressions')) {
      const msg = nodeLabelDeprecatedMessage(str(req, 'key') ?? '');
      if (msg === undefined) continue;
      const path = FieldPath.root('allowedTopologies')
        .index(i)
        .child('matchLabelExpressions')
        .index(j)
        .child('key');
      warnings.push(`${path.toString()}: ${msg}`);
    }
  }
  return warnings;
}
