/**
 * resource.k8s.io/v1alpha2 validation as pkg/apis/resource/validation (release-1.27), on v1alpha2
 * JSON. Object metadata is validated by the generic store (names: DNS subdomains); these are the
 * kind-specific rules. The pod spec's `resourceClaims` (AM-14) are validated with pods.
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { objectMetaFieldOrder } from '../../../machinery/object.js';
import type { KubeObject } from '../../../machinery/object.js';
import { invalidRendered } from '../../../machinery/validation/gosyntax.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import {
  fieldImmutableErrorMsg,
  validateAnnotations,
  validateLabels,
} from '../../../machinery/validation/objectmeta.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { bool, indexedObjs, obj, objArr, str, strMap } from '../../core/v1/access.js';
import { invalidEach } from '../../core/v1/validation/common.js';
import { validateNodeSelector } from '../../core/v1/validation/nodeselector.js';
import { validateCSIDriverName } from '../../storage/v1/validation/common.js';
import { goAllocationResult, goResourceClaimSpec, goResourceClaimTemplateSpec } from './gosyntax.js';

export const resourceClaimReservedForMaxSize = 32;
export const allocationResultResourceHandlesMaxSize = 32;
export const resourceHandleDataMaxSize = 16 * 1024;
export const podSchedulingNodeListMaxSize = 128;

const supportedAllocationModes = ['Immediate', 'WaitForFirstConsumer'];

const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');

/** validateResourceDriverName: the rules of a CSI driver name. */
const validateDriverName = validateCSIDriverName;

function validateClaimParameters(ref: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ref === undefined) return errs;
  if ((str(ref, 'kind') ?? '') === '') errs.push(fieldErrors.required(path.child('kind'), ''));
  if ((str(ref, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child('name'), ''));
  return errs;
}

function validateClassParameters(ref: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs = validateClaimParameters(ref, path);
  const namespace = str(ref, 'namespace') ?? '';
  if (namespace !== '')
    errs.push(...invalidEach(path.child('namespace'), namespace, isDNS1123Label(namespace)));
  return errs;
}

/** validateResourceClaimSpec. */
function validateClaimSpec(spec: JsonObject | undefined, path: FieldPath): FieldError[] {
  const className = str(spec, 'resourceClassName') ?? '';
  const errs = invalidEach(path.child('resourceClassName'), className, nameIsDNSSubdomain(className, false));
  errs.push(...validateClaimParameters(obj(spec, 'parametersRef'), path.child('parametersRef')));
  const mode = str(spec, 'allocationMode') ?? '';
  if (!supportedAllocationModes.includes(mode)) {
    errs.push(fieldErrors.notSupported(path.child('allocationMode'), mode, supportedAllocationModes));
  }
  return errs;
}

/** ValidateClass (metadata aside). */
export function validateResourceClass(rc: KubeObject): FieldError[] {
  const errs = validateDriverName(str(rc, 'driverName') ?? '', FieldPath.root('driverName'));
  errs.push(...validateClassParameters(obj(rc, 'parametersRef'), FieldPath.root('parametersRef')));
  const nodes = obj(rc, 'suitableNodes');
  if (nodes !== undefined) errs.push(...validateNodeSelector(nodes, FieldPath.root('suitableNodes')));
  return errs;
}

/** The strategy's ValidateUpdate: ValidateClass, then ValidateClassUpdate (which repeats it). */
export function validateResourceClassUpdate(rc: KubeObject): FieldError[] {
  return [...validateResourceClass(rc), ...validateResourceClass(rc)];
}

/** ValidateClaim (metadata aside). */
export function validateResourceClaim(claim: KubeObject): FieldError[] {
  return validateClaimSpec(obj(claim, 'spec'), FieldPath.root('spec'));
}

/** The strategy's ValidateUpdate: ValidateClaim, then ValidateClaimUpdate (immutable spec, ValidateClaim). */
export function validateResourceClaimUpdate(claim: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateResourceClaim(claim);
  const spec = obj(claim, 'spec');
  if (!jsonEqual(spec ?? null, obj(old, 'spec') ?? null)) {
    errs.push(invalidRendered(FieldPath.root('spec'), goResourceClaimSpec(spec), fieldImmutableErrorMsg));
  }
  errs.push(...validateResourceClaim(claim));
  return errs;
}

function validateResourceHandles(handles: readonly JsonObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  handles.forEach((h, i) => {
    const p = path.index(i);
    const driver = str(h, 'driverName') ?? '';
    if (driver.length > 0) errs.push(...validateDriverName(driver, p.child('driverName')));
    const data = str(h, 'data') ?? '';
    if (byteLen(data) > resourceHandleDataMaxSize) {
      errs.push(fieldErrors.tooLong(p.child('data'), byteLen(data), resourceHandleDataMaxSize));
    }
  });
  if (handles.length > allocationResultResourceHandlesMaxSize) {
    errs.push(fieldErrors.tooLong(path, handles.length, allocationResultResourceHandlesMaxSize));
  }
  return errs;
}

function validateAllocationResult(a: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (a === undefined) return [];
  const errs: FieldError[] = [];
  const handles = objArr(a, 'resourceHandles');
  if (handles.length > 0) errs.push(...validateResourceHandles(handles, path.child('resourceHandles')));
  const nodes = obj(a, 'availableOnNodes');
  if (nodes !== undefined) errs.push(...validateNodeSelector(nodes, path.child('availableOnNodes')));
  return errs;
}

/** validateResourceClaimConsumers: unique UIDs, required fields, at most 32 entries. */
function validateConsumers(consumers: readonly JsonObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const uids = new Set<string>();
  consumers.forEach((c, i) => {
    const p = path.index(i);
    const uid = str(c, 'uid') ?? '';
    if (uids.has(uid)) {
      errs.push(fieldErrors.duplicate(p.child('uid'), uid));
      return;
    }
    uids.add(uid);
    for (const key of ['resource', 'name', 'uid'] as const) {
      if ((str(c, key) ?? '') === '') errs.push(fieldErrors.required(p.child(key), ''));
    }
  });
  if (consumers.length > resourceClaimReservedForMaxSize) {
    errs.push(fieldErrors.tooLong(path, consumers.length, resourceClaimReservedForMaxSize));
  }
  return errs;
}

/** A consumer reference as a set member (Go struct equality over its four fields). */
function consumerKey(c: JsonObject): string {
  return JSON.stringify(['apiGroup', 'resource', 'name', 'uid'].map((k) => str(c, k) ?? ''));
}

/** ValidateClaimStatusUpdate (metadata aside). */
export function validateResourceClaimStatusUpdate(claim: KubeObject, old: KubeObject): FieldError[] {
  const path = FieldPath.root('status');
  const status = obj(claim, 'status');
  const oldStatus = obj(old, 'status');
  const allocation = obj(status, 'allocation');
  const oldAllocation = obj(oldStatus, 'allocation');
  const reservedFor = objArr(status, 'reservedFor');
  const deallocationRequested = bool(status, 'deallocationRequested') ?? false;
  const errs: FieldError[] = [];
  const driver = str(status, 'driverName') ?? '';
  if (driver !== '') errs.push(...validateDriverName(driver, path.child('driverName')));
  else if (allocation !== undefined) {
    errs.push(fieldErrors.required(path.child('driverName'), 'must be specified when `allocation` is set'));
  }
  errs.push(...validateAllocationResult(allocation, path.child('allocation')));
  errs.push(...validateConsumers(reservedFor, path.child('reservedFor')));
  if (reservedFor.length > 0) {
    if (allocation === undefined) {
      errs.push(
        fieldErrors.forbidden(path.child('reservedFor'), 'may not be specified when `allocated` is not set'),
      );
    } else {
      if (!(bool(allocation, 'shareable') ?? false) && reservedFor.length > 1) {
        errs.push(fieldErrors.forbidden(path.child('reservedFor'), 'may not be reserved more than once'));
      }
      // While deallocating (or deleted), entries may be removed but not added.
      if (claim.metadata.deletionTimestamp !== undefined || deallocationRequested) {
        const before = new Set(objArr(oldStatus, 'reservedFor').map(consumerKey));
        if (reservedFor.some((c) => !before.has(consumerKey(c)))) {
          errs.push(
            fieldErrors.forbidden(
              path.child('reservedFor'),
              'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set',
            ),
          );
        }
      }
    }
  }
  if (oldAllocation !== undefined && allocation !== undefined && !jsonEqual(allocation, oldAllocation)) {
    errs.push(
      invalidRendered(path.child('allocation'), goAllocationResult(allocation), fieldImmutableErrorMsg),
    );
  }
  const oldDeallocationRequested = bool(oldStatus, 'deallocationRequested') ?? false;
  if (!oldDeallocationRequested && deallocationRequested && reservedFor.length > 0) {
    errs.push(
      fieldErrors.forbidden(
        path.child('deallocationRequested'),
        'deallocation cannot be requested while `reservedFor` is set',
      ),
    );
  }
  if (allocation === undefined && deallocationRequested) {
    errs.push(fieldErrors.forbidden(path, '`allocation` must be set when `deallocationRequested` is set'));
  }
  if (oldDeallocationRequested && !deallocationRequested && allocation !== undefined) {
    errs.push(
      fieldErrors.forbidden(
        path.child('deallocationRequested'),
        'may not be cleared when `allocation` is set',
      ),
    );
  }
  return errs;
}

/** validateSliceIsASet over node names: duplicates, DNS-subdomain names, at most 128. */
function validateNodeNameSet(v: JsonValue | undefined, path: FieldPath): FieldError[] {
  const names = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const p = path.index(i);
    if (seen.has(name)) {
      errs.push(fieldErrors.duplicate(p, name));
      return;
    }
    errs.push(...invalidEach(p, name, nameIsDNSSubdomain(name, false)));
    seen.add(name);
  });
  if (names.length > podSchedulingNodeListMaxSize) {
    errs.push(fieldErrors.tooLong(path, names.length, podSchedulingNodeListMaxSize));
  }
  return errs;
}

/** ValidatePodSchedulingContexts (metadata aside): spec.potentialNodes is a set of node names. */
export function validatePodSchedulingContext(ctx: KubeObject): FieldError[] {
  return validateNodeNameSet(obj(ctx, 'spec')?.['potentialNodes'], FieldPath.root('spec', 'potentialNodes'));
}

/** The strategy's ValidateUpdate: the object, then ValidatePodSchedulingContextUpdate (which repeats it). */
export function validatePodSchedulingContextUpdate(ctx: KubeObject): FieldError[] {
  return [...validatePodSchedulingContext(ctx), ...validatePodSchedulingContext(ctx)];
}

/**
 * ValidatePodSchedulingContextStatusUpdate (metadata aside). v1.27 reports the claims under
 * `status.claims`, not the JSON name `status.resourceClaims`.
 */
export function validatePodSchedulingContextStatusUpdate(ctx: KubeObject): FieldError[] {
  const path = FieldPath.root('status', 'claims');
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, claim] of indexedObjs(obj(ctx, 'status'), 'resourceClaims')) {
    errs.push(...validateNodeNameSet(claim['unsuitableNodes'], path.index(i).child('unsuitableNodes')));
    const name = str(claim, 'name') ?? '';
    if (names.has(name)) errs.push(fieldErrors.duplicate(path.index(i), name));
    else names.add(name);
  }
  return errs;
}

/** Go's reflect IsZero on the decoded field: absent, null, "", 0, false (a [] or {} is set). */
function isZero(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === false;
}

/** Core ValidateTemplateObjectMeta: annotations, labels, and nothing else may be set. */
function validateTemplateObjectMeta(meta: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs = validateAnnotations(strMap(meta, 'annotations'), path.child('annotations'));
  errs.push(...validateLabels(strMap(meta, 'labels'), path.child('labels')));
  for (const f of objectMetaFieldOrder) {
    if (f === 'labels' || f === 'annotations') continue;
    if (!isZero(meta?.[f])) errs.push(fieldErrors.forbidden(path.child(f), 'cannot be set for a template'));
  }
  return errs;
}

/** ValidateClaimTemplate (metadata aside): the template's metadata and claim spec. */
export function validateResourceClaimTemplate(t: KubeObject): FieldError[] {
  const spec = obj(t, 'spec');
  const path = FieldPath.root('spec');
  const errs = validateTemplateObjectMeta(obj(spec, 'metadata'), path.child('metadata'));
  errs.push(...validateClaimSpec(obj(spec, 'spec'), path.child('spec')));
  return errs;
}

/** The strategy's ValidateUpdate: the template, then ValidateClaimTemplateUpdate (immutable spec, the template). */
export function validateResourceClaimTemplateUpdate(t: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateResourceClaimTemplate(t);
  const spec = obj(t, 'spec');
  if (!jsonEqual(spec ?? null, obj(old, 'spec') ?? null)) {
    errs.push(
      invalidRendered(FieldPath.root('spec'), goResourceClaimTemplateSpec(spec), fieldImmutableErrorMsg),
    );
  }
  errs.push(...validateResourceClaimTemplate(t));
  return errs;
}
