/**
 * PersistentVolume and PersistentVolumeClaim validation (upstream ValidatePersistentVolume*,
 * ValidatePersistentVolumeClaim*, release-1.27), on core/v1 JSON. ObjectMeta is checked by the
 * generic store.
 */
import { posix } from 'node:path';
import {
  FieldError,
  FieldPath,
  fieldErrors,
  goQuote,
  omitValue,
} from '../../../../machinery/field/errors.js';
import { validateLabelSelector } from '../../../../machinery/labels/selector.js';
import { compareQuantity } from '../../../../machinery/quantity/quantity.js';
import type { Quantity } from '../../../../machinery/quantity/quantity.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import type { FeatureGateReader } from '../../../../machinery/validation-context.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { toMetav1Selector } from '../../../../machinery/labels/metav1.js';
import { fakePointer } from '../../../apps/v1/validation/gorender.js';
import { semanticEqual } from '../../../apps/v1/validation/semantic.js';
import { obj, str, strArr, strMap } from '../access.js';
import { invalidEach, quantityAt, validateDNS1123Label } from './common.js';
import { structDiff } from './go-diff.js';
import { validateNodeSelector } from './nodeselector.js';
import {
  goResourceList,
  quantities,
  validateBasicResource,
  validatePositiveQuantityValue,
  validateResourceQuantityValue,
} from './resource-names.js';

/** Access modes; ReadWriteOncePod needs its gate (beta, on in v1.27) unless the old object used it. */
const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const accessModesWithoutRWOP = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];

/**
 * Upstream ValidationOptionsForPersistentVolume(Claim): what the request's feature gates allow,
 * widened by what the old object already uses.
 */
export interface PVValidationOptions {
  readonly allowReadWriteOncePod: boolean;
  readonly enableRecoverFromExpansionFailure: boolean;
  readonly enableRetroactiveDefaultStorageClass: boolean;
}

export function pvValidationOptions(features: FeatureGateReader, old?: JsonObject): PVValidationOptions {
  const oldModes = strArr(obj(old, 'spec'), 'accessModes');
  const oldStatus = obj(old, 'status');
  return {
    allowReadWriteOncePod: features.enabled('ReadWriteOncePod') || oldModes.includes('ReadWriteOncePod'),
    enableRecoverFromExpansionFailure:
      features.enabled('RecoverVolumeExpansionFailure') ||
      obj(oldStatus, 'allocatedResources') !== undefined ||
      str(oldStatus, 'resizeStatus') !== undefined,
    enableRetroactiveDefaultStorageClass: features.enabled('RetroactiveDefaultStorageClass'),
  };
}

/** The v1.27 defaults, for callers without a request (tests, embedded pod volumes). */
const defaultOptions: PVValidationOptions = {
  allowReadWriteOncePod: true,
  enableRecoverFromExpansionFailure: false,
  enableRetroactiveDefaultStorageClass: true,
};
const baseAccessModes = new Set(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']);
const supportedReclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const supportedVolumeModes = ['Block', 'Filesystem'];
const supportedHostPathTypes = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];
export const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
const mountOptionAnnotation = 'volume.beta.kubernetes.io/mount-options';

/** The persistent volume source fields in the order upstream checks them. */
export const pvSourceKeys = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

/** Where upstream reports a source's own errors (two differ from the JSON names). */
const sourceErrorPath: Partial<Record<(typeof pvSourceKeys)[number], string>> = {
  gcePersistentDisk: 'persistentDisk',
};
/** Where upstream reports "more than 1 volume type" (cephfs is spelled cephFS there). */
const sourceForbiddenPath: Partial<Record<(typeof pvSourceKeys)[number], string>> = { cephfs: 'cephFS' };

function validateAccessModes(modes: JsonValue | undefined, path: FieldPath, required: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) errs.push(fieldErrors.required(path, required));
  return errs;
}

function validateAccessModeValues(
  modes: JsonValue | undefined,
  path: FieldPath,
  opts: PVValidationOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  const supported = opts.allowReadWriteOncePod ? supportedAccessModes : accessModesWithoutRWOP;
  for (const m of Array.isArray(modes) ? modes : []) {
    const mode = typeof m === 'string' ? m : '';
    if (!supported.includes(mode)) errs.push(fieldErrors.notSupported(path, mode, supported));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (baseAccessModes.has(mode)) other = true;
  }
  if (rwop && other)
    errs.push(fieldErrors.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [fieldErrors.invalid(path, target, "must not contain '..'")] : [];
}

function validatePVSecretReference(ref: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['name', 'namespace']) {
    const v = str(ref, key) ?? '';
    if (v === '') errs.push(fieldErrors.required(path.child(key), ''));
    else errs.push(...validateDNS1123Label(v, path.child(key)));
  }
  return errs;
}

function validateSource(key: string, src: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const required = (field: string): boolean => {
    if ((str(src, field) ?? '') !== '') return false;
    errs.push(fieldErrors.required(path.child(field), ''));
    return true;
  };
  switch (key) {
    case 'hostPath': {
      if (!required('path'))
        errs.push(...validatePathNoBacksteps(str(src, 'path') ?? '', path.child('path')));
      const type = src['type'];
      if (typeof type === 'string' && !supportedHostPathTypes.includes(type)) {
        errs.push(fieldErrors.notSupported(path.child('type'), type, supportedHostPathTypes));
      }
      break;
    }
    case 'nfs': {
      required('server');
      if (!required('path')) {
        const p = str(src, 'path') ?? '';
        if (!posix.isAbsolute(p))
          errs.push(fieldErrors.invalid(path.child('path'), p, 'must be an absolute path'));
      }
      break;
    }
    case 'local':
      if (!required('path'))
        errs.push(...validatePathNoBacksteps(str(src, 'path') ?? '', path.child('path')));
      break;
    case 'csi': {
      const driver = str(src, 'driver') ?? '';
      const dp = path.child('driver');
      if (driver === '') errs.push(fieldErrors.required(dp, ''));
      if (driver.length > 63) errs.push(fieldErrors.tooLong(dp, driver, 63));
      errs.push(...invalidEach(dp, driver, isDNS1123Subdomain(driver.toLowerCase())));
      required('volumeHandle');
      for (const ref of [
        'controllerPublishSecretRef',
        'controllerExpandSecretRef',
        'nodePublishSecretRef',
        'nodeExpandSecretRef',
      ]) {
        const r = obj(src, ref);
        if (r !== undefined) errs.push(...validatePVSecretReference(r, path.child(ref)));
      }
      break;
    }
    default:
      break;
  }
  return errs;
}

/** Upstream validateVolumeNodeAffinity: `required` must be given. */
function validateVolumeNodeAffinity(na: JsonObject, path: FieldPath): FieldError[] {
  const required = obj(na, 'required');
  if (required === undefined) {
    return [fieldErrors.required(path.child('required'), 'must specify required node constraints')];
  }
  return validateNodeSelector(required, path.child('required'));
}

/** Upstream ValidatePersistentVolumeSpec (not inline). */
export function validatePersistentVolumeSpec(
  spec: JsonObject,
  path: FieldPath,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateAccessModes(spec['accessModes'], path.child('accessModes'), ''));
  errs.push(...validateAccessModeValues(spec['accessModes'], path.child('accessModes'), opts));

  const capPath = path.child('capacity');
  const capacity = obj(spec, 'capacity');
  const capKeys = Object.keys(capacity ?? {});
  if (capKeys.length === 0) errs.push(fieldErrors.required(capPath, ''));
  if (!capKeys.includes('storage') || capKeys.length > 1) {
    errs.push(
      new FieldError(
        'FieldValueNotSupported',
        capPath,
        omitValue,
        `${goResourceList(capacity)}: supported values: "storage"`,
      ),
    );
  }
  for (const [name, q] of quantities(capacity, capPath, errs)) {
    errs.push(...validateBasicResource(q, capPath.key(name)));
    errs.push(...validatePositiveQuantityValue(q, capPath.key(name)));
  }

  const policy = str(spec, 'persistentVolumeReclaimPolicy') ?? '';
  if (policy !== '' && !supportedReclaimPolicies.includes(policy)) {
    errs.push(
      fieldErrors.notSupported(path.child('persistentVolumeReclaimPolicy'), policy, supportedReclaimPolicies),
    );
  }

  const na = obj(spec, 'nodeAffinity');
  if (na !== undefined) errs.push(...validateVolumeNodeAffinity(na, path.child('nodeAffinity')));

  let count = 0;
  for (const key of pvSourceKeys) {
    const src = obj(spec, key);
    if (src === undefined) continue;
    if (count > 0 && key !== 'flexVolume') {
      errs.push(
        fieldErrors.forbidden(
          path.child(sourceForbiddenPath[key] ?? key),
          'may not specify more than 1 volume type',
        ),
      );
      continue;
    }
    count++;
    errs.push(...validateSource(key, src, path.child(sourceErrorPath[key] ?? key)));
    if (key === 'local' && na === undefined) {
      errs.push(fieldErrors.required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
    }
  }
  if (count === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));

  const hostPath = obj(spec, 'hostPath');
  if (
    hostPath !== undefined &&
    policy === 'Recycle' &&
    posix.normalize(str(hostPath, 'path') ?? '') === '/'
  ) {
    errs.push(
      fieldErrors.forbidden(
        path.child('persistentVolumeReclaimPolicy'),
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  }

  const sc = str(spec, 'storageClassName') ?? '';
  if (sc !== '') errs.push(...invalidEach(path.child('storageClassName'), sc, nameIsDNSSubdomain(sc, false)));
  const mode = spec['volumeMode'];
  if (typeof mode === 'string' && !supportedVolumeModes.includes(mode)) {
    errs.push(fieldErrors.notSupported(path.child('volumeMode'), mode, supportedVolumeModes));
  }
  return errs;
}

const specPath = FieldPath.root('spec');

/** Mount options only for the volume types that support them (pkg/volume/validation). */
function checkMountOption(pv: JsonObject): FieldError[] {
  const spec = obj(pv, 'spec');
  const supported = [
    'gcePersistentDisk',
    'awsElasticBlockStore',
    'glusterfs',
    'nfs',
    'rbd',
    'quobyte',
    'iscsi',
    'cinder',
    'cephfs',
    'azureFile',
    'vsphereVolume',
    'azureDisk',
    'photonPersistentDisk',
  ];
  if (supported.some((k) => obj(spec, k) !== undefined)) return [];
  const annotations = strMap(obj(pv, 'metadata'), 'annotations') ?? {};
  if (annotations[mountOptionAnnotation] === undefined) return [];
  return [
    fieldErrors.forbidden(
      FieldPath.root('metadata', 'annotations', mountOptionAnnotation),
      'may not specify mount options for this volume type',
    ),
  ];
}

export function validatePersistentVolume(
  pv: JsonObject,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  return [...validatePersistentVolumeSpec(obj(pv, 'spec') ?? {}, specPath, opts), ...checkMountOption(pv)];
}

/** Go `%#v` of a *string after the field error dereferences it. */
function derefString(v: JsonValue | undefined): unknown {
  return typeof v === 'string' ? v : null;
}

function sourceOf(spec: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const k of pvSourceKeys) {
    const v = spec?.[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Upstream ValidatePersistentVolumeUpdate (the strategy adds the plain validation first). */
export function validatePersistentVolumeUpdate(
  pv: JsonObject,
  old: JsonObject,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  const errs = validatePersistentVolumeSpec(obj(pv, 'spec') ?? {}, specPath, opts);
  const newSpec = obj(pv, 'spec');
  const oldSpec = obj(old, 'spec');
  const newSource = sourceOf(newSpec);
  const oldSource = sourceOf(oldSpec);
  // A CSI controllerExpandSecretRef may be added later.
  const oldCsi = obj(oldSource, 'csi');
  const newCsi = obj(newSource, 'csi');
  if (oldCsi !== undefined && oldCsi['controllerExpandSecretRef'] === undefined && newCsi !== undefined) {
    const rest: JsonObject = { ...newCsi };
    delete rest['controllerExpandSecretRef'];
    newSource['csi'] = rest;
  }
  if (!semanticEqual(newSource, oldSource)) {
    errs.push(
      fieldErrors.forbidden(
        FieldPath.root('spec', 'persistentvolumesource'),
        `spec.persistentvolumesource is immutable after creation\n${structDiff('core.PersistentVolumeSource', oldSource, newSource)}`,
      ),
    );
  }
  const newMode = newSpec?.['volumeMode'];
  const oldMode = oldSpec?.['volumeMode'];
  if (!semanticEqual(newMode ?? null, oldMode ?? null)) {
    errs.push(fieldErrors.invalid(FieldPath.root('volumeMode'), derefString(newMode), 'field is immutable'));
  }
  const oldNa = oldSpec?.['nodeAffinity'];
  if (oldNa !== undefined && !semanticEqual(newSpec?.['nodeAffinity'], oldNa)) {
    errs.push(
      new FieldError(
        'FieldValueInvalid',
        FieldPath.root('nodeAffinity'),
        omitValue,
        `${goVolumeNodeAffinity(newSpec?.['nodeAffinity'])}: field is immutable`,
      ),
    );
  }
  return errs;
}

/** `%#v` of a dereferenced *core.VolumeNodeAffinity (pointers cannot match upstream's). */
function goVolumeNodeAffinity(v: JsonValue | undefined): string {
  if (!isJsonObject(v)) return '"null"';
  const req = isJsonObject(v['required']) ? fakePointer : 'nil';
  return `core.VolumeNodeAffinity{Required:(*core.NodeSelector)(${req})}`;
}

// ---- PersistentVolumeClaim ----

function validateDataSource(ds: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((str(ds, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child('name'), ''));
  const kind = str(ds, 'kind') ?? '';
  if (kind === '') errs.push(fieldErrors.required(path.child('kind'), ''));
  const apiGroup = str(ds, 'apiGroup') ?? '';
  if (apiGroup === '' && kind !== 'PersistentVolumeClaim') {
    errs.push(
      fieldErrors.invalid(
        path,
        kind,
        "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      ),
    );
  }
  return errs;
}

function validateDataSourceRef(ref: JsonObject, path: FieldPath): FieldError[] {
  const errs = validateDataSource(ref, path);
  const ns = str(ref, 'namespace') ?? '';
  if (ns !== '') {
    // Upstream ValidateNamespaceName: an RFC 1123 label.
    errs.push(...validateDNS1123Label(ns, path.child('namespace')));
  }
  return errs;
}

/** `%#v` of a dereferenced *field.Path: upstream reports the path struct itself. */
function goFieldPath(name: string): string {
  return `field.Path{name:${goQuote(name)}, index:"", parent:(*field.Path)(${fakePointer})}`;
}

function sameDataSource(a: JsonObject, b: JsonObject): boolean {
  return (
    (str(a, 'apiGroup') ?? '') === (str(b, 'apiGroup') ?? '') &&
    (str(a, 'kind') ?? '') === (str(b, 'kind') ?? '') &&
    (str(a, 'name') ?? '') === (str(b, 'name') ?? '')
  );
}

/** Upstream ValidatePersistentVolumeClaimSpec. */
export function validatePersistentVolumeClaimSpec(
  spec: JsonObject,
  path: FieldPath,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(
    ...validateAccessModes(
      spec['accessModes'],
      path.child('accessModes'),
      'at least 1 access mode is required',
    ),
  );
  const selector = obj(spec, 'selector');
  if (selector !== undefined) {
    errs.push(...validateLabelSelector(toMetav1Selector(selector), path.child('selector')));
  }
  errs.push(...validateAccessModeValues(spec['accessModes'], path.child('accessModes'), opts));

  const storagePath = path.child('resources').key('storage');
  const requests = obj(obj(spec, 'resources'), 'requests');
  const storage = requests?.['storage'];
  if (storage === undefined || storage === null) {
    errs.push(fieldErrors.required(storagePath, ''));
  } else {
    const q = quantityAt(storage, storagePath);
    if (q instanceof FieldError) errs.push(q);
    else {
      const positive = validatePositiveQuantityValue(q, storagePath);
      errs.push(
        ...(positive.length > 0 ? positive : validateResourceQuantityValue('storage', q, storagePath)),
      );
    }
  }

  const sc = str(spec, 'storageClassName');
  if (sc !== undefined && sc !== '') {
    errs.push(...invalidEach(path.child('storageClassName'), sc, nameIsDNSSubdomain(sc, false)));
  }
  const mode = spec['volumeMode'];
  if (typeof mode === 'string' && !supportedVolumeModes.includes(mode)) {
    errs.push(fieldErrors.notSupported(path.child('volumeMode'), mode, supportedVolumeModes));
  }
  const ds = obj(spec, 'dataSource');
  const ref = obj(spec, 'dataSourceRef');
  if (ds !== undefined) errs.push(...validateDataSource(ds, path.child('dataSource')));
  if (ref !== undefined) errs.push(...validateDataSourceRef(ref, path.child('dataSourceRef')));
  if (ref !== undefined && (str(ref, 'namespace') ?? '') !== '') {
    if (ds !== undefined) {
      errs.push(
        new FieldError(
          'FieldValueInvalid',
          path,
          omitValue,
          `${goFieldPath('dataSource')}: may not be specified when dataSourceRef.namespace is specified`,
        ),
      );
    }
  } else if (ds !== undefined && ref !== undefined && !sameDataSource(ds, ref)) {
    errs.push(
      new FieldError(
        'FieldValueInvalid',
        path,
        omitValue,
        `${goFieldPath('dataSource')}: must match dataSourceRef`,
      ),
    );
  }
  return errs;
}

export function validatePersistentVolumeClaim(
  pvc: JsonObject,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  return validatePersistentVolumeClaimSpec(obj(pvc, 'spec') ?? {}, specPath, opts);
}

function storageRequest(spec: JsonObject | undefined): Quantity | undefined {
  const v = obj(obj(spec, 'resources'), 'requests')?.['storage'];
  if (v === undefined || v === null) return undefined;
  const q = quantityAt(v, specPath);
  return q instanceof FieldError ? undefined : q;
}

function annotationsOf(o: JsonObject): Record<string, string> {
  return strMap(obj(o, 'metadata'), 'annotations') ?? {};
}

/**
 * Upstream ValidatePersistentVolumeClaimUpdate: the claim again, the beta storage class annotation
 * immutable (unless upgraded to spec.storageClassName), the spec immutable except volumeName once,
 * a storageClassName set once (RetroactiveDefaultStorageClass, beta in v1.27) and the storage
 * request of a bound claim; the request may not shrink.
 */
export function validatePersistentVolumeClaimUpdate(
  pvc: JsonObject,
  old: JsonObject,
  opts: PVValidationOptions = defaultOptions,
): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc, opts);
  const newSpec: JsonObject = structuredClone(obj(pvc, 'spec') ?? {});
  const oldSpec: JsonObject = structuredClone(obj(old, 'spec') ?? {});
  if ((str(oldSpec, 'volumeName') ?? '') === '') {
    if (newSpec['volumeName'] === undefined) delete oldSpec['volumeName'];
    else oldSpec['volumeName'] = newSpec['volumeName']!;
  }
  const oldAnn = annotationsOf(old);
  const newAnn = annotationsOf(pvc);
  const oldSc = oldAnn[betaStorageClassAnnotation];
  const newScName = str(newSpec, 'storageClassName');
  const oldScName = str(oldSpec, 'storageClassName');
  const upgradeFromAnnotation =
    oldSc !== undefined &&
    oldSpec['storageClassName'] === undefined &&
    newScName !== undefined &&
    newScName === oldSc &&
    (newAnn[betaStorageClassAnnotation] === undefined || newAnn[betaStorageClassAnnotation] === oldSc);
  if (upgradeFromAnnotation) {
    delete newSpec['storageClassName'];
  } else {
    const a = newAnn[betaStorageClassAnnotation] ?? '';
    const b = oldSc ?? '';
    if (a !== b) {
      errs.push(
        fieldErrors.invalid(
          FieldPath.root('metadata', 'annotations', betaStorageClassAnnotation),
          a,
          'field is immutable',
        ),
      );
    }
    if (opts.enableRetroactiveDefaultStorageClass && upgradeFromNil(oldSc, oldScName, newScName))
      delete newSpec['storageClassName'];
  }
  const phase = str(obj(pvc, 'status'), 'phase');
  const newRequests = obj(obj(newSpec, 'resources'), 'requests');
  if (phase === 'Bound' && newRequests !== undefined) {
    const oldStorage = obj(obj(obj(old, 'spec'), 'resources'), 'requests')?.['storage'];
    if (oldStorage === undefined) delete newRequests['storage'];
    else newRequests['storage'] = oldStorage;
  }
  if (!semanticEqual(newSpec, oldSpec)) {
    errs.push(
      fieldErrors.forbidden(
        specPath,
        `spec is immutable after creation except resources.requests for bound claims\n${structDiff('core.PersistentVolumeClaimSpec', oldSpec, newSpec)}`,
      ),
    );
  }
  const oldSize = storageRequest(obj(old, 'spec'));
  const newSize = storageRequest(obj(pvc, 'spec'));
  const zero = { mantissa: 0n, exponent: 0, format: 'DecimalSI' } as const;
  const requestPath = FieldPath.root('spec', 'resources', 'requests', 'storage');
  if (compareQuantity(newSize ?? zero, oldSize ?? zero) < 0) {
    if (!opts.enableRecoverFromExpansionFailure) {
      errs.push(fieldErrors.forbidden(requestPath, 'field can not be less than previous value'));
    } else {
      // Shrinking is allowed down to (not onto) the capacity recorded in the old status.
      const capacity = obj(obj(old, 'status'), 'capacity')?.['storage'];
      const statusSize =
        capacity === undefined || capacity === null ? undefined : quantityAt(capacity, specPath);
      const status = statusSize === undefined || statusSize instanceof FieldError ? zero : statusSize;
      if (compareQuantity(newSize ?? zero, status) <= 0) {
        errs.push(fieldErrors.forbidden(requestPath, 'field can not be less than status.capacity'));
      }
    }
  }
  const newMode = obj(pvc, 'spec')?.['volumeMode'];
  const oldMode = obj(old, 'spec')?.['volumeMode'];
  if (!semanticEqual(newMode ?? null, oldMode ?? null)) {
    errs.push(fieldErrors.invalid(FieldPath.root('volumeMode'), derefString(newMode), 'field is immutable'));
  }
  return errs;
}

function upgradeFromNil(
  oldSc: string | undefined,
  oldScName: string | undefined,
  newScName: string | undefined,
): boolean {
  return (
    oldSc === undefined &&
    (oldScName === undefined || oldScName === '') &&
    newScName !== undefined &&
    newScName !== ''
  );
}

/** Upstream ValidatePersistentVolumeClaimStatusUpdate (RecoverVolumeExpansionFailure is off). */
export function validatePersistentVolumeClaimStatusUpdate(pvc: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (strArr(obj(pvc, 'spec'), 'accessModes').length === 0) {
    errs.push(fieldErrors.required(FieldPath.root('Spec', 'accessModes'), ''));
  }
  const capPath = FieldPath.root('status', 'capacity');
  for (const [name, q] of quantities(obj(obj(pvc, 'status'), 'capacity'), capPath, errs)) {
    errs.push(...validateBasicResource(q, capPath.key(name)));
  }
  return errs;
}
