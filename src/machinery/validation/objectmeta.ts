/**
 * ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation/objectmeta.go (v0.27): create
 * rules (name/generateName, namespace, labels, annotations, owner references, finalizers,
 * generation) and update rules (immutable identity fields, resourceVersion, generation).
 */
import { FieldPath, fieldErrors } from '../field/errors.js';
import type { FieldError } from '../field/errors.js';
import type { ObjectMeta } from '../object.js';
import type { NameValidation } from '../validation-context.js';
import type { JsonValue } from '../../util/json.js';
import { goOwnerReference, goOwnerReferences, goStringSlice, invalidRendered } from './gosyntax.js';
import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from './names.js';
import type { ValidateNameFunc } from './names.js';

export interface ObjectMetaValidationOptions {
  readonly namespaced: boolean;
  readonly nameValidation: NameValidation;
}

/** Upstream FieldImmutableErrorMsg. */
export const fieldImmutableErrorMsg = 'field is immutable';
/** Upstream TotalAnnotationSizeLimitB (256 KiB). */
export const totalAnnotationSizeLimitB = 256 * 1024;
/** Upstream IsNegativeErrorMsg. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';

const nameFuncs: Record<NameValidation, ValidateNameFunc> = {
  dns1123Subdomain: nameIsDNSSubdomain,
  dns1123Label: nameIsDNSLabel,
  dns1035Label: nameIsDNS1035Label,
  pathSegment: validatePathSegmentName,
};

/** The ValidateNameFunc a strategy's NameValidation stands for. */
export function nameValidationFunc(v: NameValidation): ValidateNameFunc {
  return nameFuncs[v];
}

function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** metav1 ValidateLabels: keys are qualified names, values label values. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErrors.invalid(path, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

/** Keys are qualified names (case-insensitively); keys plus values at most 256 KiB in total. */
export function validateAnnotations(
  annotations: Record<string, string> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldErrors.invalid(path, k, msg));
    total += byteLen(k) + byteLen(v);
  }
  if (total > totalAnnotationSizeLimitB) errs.push(fieldErrors.tooLong(path, '', totalAnnotationSizeLimitB));
  return errs;
}

function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** schema.FromAPIVersionAndKind: an unparsable apiVersion leaves group and version empty. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

function validateOwnerReference(ref: Record<string, JsonValue | undefined>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(ref['apiVersion']);
  const kind = str(ref['kind']);
  const gv = groupVersion(apiVersion);
  if (gv.version === '')
    errs.push(fieldErrors.invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
  if (kind === '') errs.push(fieldErrors.invalid(path.child('kind'), kind, 'kind must not be empty'));
  const name = str(ref['name']);
  if (name === '') errs.push(fieldErrors.invalid(path.child('name'), name, 'name must not be empty'));
  const uid = str(ref['uid']);
  if (uid === '') errs.push(fieldErrors.invalid(path.child('uid'), uid, 'uid must not be empty'));
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(
      invalidRendered(path, goOwnerReference(ref), '/v1, Kind=Event is disallowed from being an owner'),
    );
  }
  return errs;
}

/** Each reference complete, not an Event, and at most one with `controller: true`. */
export function validateOwnerReferences(
  refs: readonly Record<string, JsonValue | undefined>[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref['controller'] === true) {
      const current = `${str(ref['kind'])}/${str(ref['name'])}`;
      if (firstController !== '') {
        errs.push(
          invalidRendered(
            path,
            goOwnerReferences(refs ?? []),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** Finalizers are qualified names; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(fieldErrors.invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(
      invalidRendered(
        path,
        goStringSlice(list),
        'finalizer orphan and foregroundDeletion cannot be both set',
      ),
    );
  }
  return errs;
}

/** Upstream ValidateObjectMeta (generateName already turned into a name by the caller). */
export function validateObjectMeta(
  meta: ObjectMeta,
  options: ObjectMetaValidationOptions,
  path: FieldPath = FieldPath.root('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  const nameFn = nameFuncs[options.nameValidation];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) {
      errs.push(fieldErrors.invalid(path.child('generateName'), generateName, msg));
    }
  }
  const name = meta.name ?? '';
  if (name === '') {
    errs.push(fieldErrors.required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of nameFn(name, false)) errs.push(fieldErrors.invalid(path.child('name'), name, msg));
  }
  const namespace = meta.namespace ?? '';
  if (options.namespaced) {
    if (namespace === '') errs.push(fieldErrors.required(path.child('namespace'), ''));
    else {
      for (const msg of nameIsDNSLabel(namespace, false)) {
        errs.push(fieldErrors.invalid(path.child('namespace'), namespace, msg));
      }
    }
  } else if (namespace !== '') {
    errs.push(fieldErrors.forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  const generation = meta.generation ?? 0;
  if (generation < 0)
    errs.push(fieldErrors.invalid(path.child('generation'), generation, isNegativeErrorMsg));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errs;
}

/** Go's time.Time String() of a metav1.Time as the server (in UTC) prints it. */
function goTime(ts: string | null | undefined): string {
  const d = ts === undefined || ts === null || ts === '' ? undefined : new Date(ts);
  if (d === undefined || Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = d.toISOString(); // 2024-01-02T03:04:05.000Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac === '' ? '' : `.${frac}`} +0000 UTC`;
}

function immutable(errs: FieldError[], path: FieldPath, newVal: unknown, oldVal: unknown): void {
  if (newVal !== oldVal) errs.push(fieldErrors.invalid(path, newVal ?? null, fieldImmutableErrorMsg));
}

/** Upstream ValidateObjectMetaUpdate. */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  path: FieldPath = FieldPath.root('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set((newMeta.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length > 0) {
      errs.push(
        fieldErrors.forbidden(
          path.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`,
        ),
      );
    }
  }
  const rv = newMeta.resourceVersion ?? '';
  if (rv === '')
    errs.push(fieldErrors.invalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  const newGen = newMeta.generation ?? 0;
  if (newGen < (oldMeta.generation ?? 0)) {
    errs.push(fieldErrors.invalid(path.child('generation'), newGen, 'must not be decremented'));
  }
  immutable(errs, path.child('name'), newMeta.name ?? '', oldMeta.name ?? '');
  immutable(errs, path.child('namespace'), newMeta.namespace ?? '', oldMeta.namespace ?? '');
  immutable(errs, path.child('uid'), newMeta.uid ?? '', oldMeta.uid ?? '');
  const newCreated = goTime(newMeta.creationTimestamp);
  if (newCreated !== goTime(oldMeta.creationTimestamp)) {
    errs.push(invalidRendered(path.child('creationTimestamp'), newCreated, fieldImmutableErrorMsg));
  }
  const newDel = newMeta.deletionTimestamp;
  const oldDel = oldMeta.deletionTimestamp;
  // A nil pointer prints as the quoted string "null" (field.Error.ErrorBody).
  const newDelText = newDel === undefined || newDel === null ? '"null"' : goTime(newDel);
  const oldDelText = oldDel === undefined || oldDel === null ? '"null"' : goTime(oldDel);
  if (newDelText !== oldDelText) {
    errs.push(invalidRendered(path.child('deletionTimestamp'), newDelText, fieldImmutableErrorMsg));
  }
  immutable(
    errs,
    path.child('deletionGracePeriodSeconds'),
    newMeta.deletionGracePeriodSeconds,
    oldMeta.deletionGracePeriodSeconds,
  );
  errs.push(...validateLabels(newMeta.labels, path.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child('ownerReferences')));
  return errs;
}
