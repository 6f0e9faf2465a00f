/** Pod volumes (upstream ValidateVolumes and validateVolumeSource, for the common sources). */
import { FieldError, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldPath } from '../../../../machinery/field/errors.js';
import type { JsonObject } from '../../../../util/json.js';
import { indexedObjs, num, obj, str } from '../access.js';
import type { volumeSourceKeys } from '../defaults/volume.js';
import { invalidEach, isConfigMapKey, quantityAt, validateDNS1123Label } from './common.js';
import { validateFieldRef } from './container.js';

const hostPathTypes = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];
const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const volumeFieldPaths = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

function validateMode(mode: number | undefined, path: FieldPath): FieldError[] {
  if (mode === undefined) return [];
  return mode < 0 || mode > 0o777 ? [fieldErrors.invalid(path, mode, fileModeErrorMsg)] : [];
}

/** A relative path that does not escape its volume (upstream validateLocalDescendingPath). */
export function validateLocalPath(target: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldErrors.invalid(path, target, 'must be a relative path'));
  if (target.split(/[\\/]/).includes('..'))
    errs.push(fieldErrors.invalid(path, target, "must not contain '..'"));
  return errs;
}

function validateKeyToPaths(source: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, item] of indexedObjs(source, 'items')) {
    const p = path.child('items').index(i);
    const key = str(item, 'key') ?? '';
    if (key === '') errs.push(fieldErrors.required(p.child('key'), ''));
    else errs.push(...invalidEach(p.child('key'), key, isConfigMapKey(key)));
    const target = str(item, 'path') ?? '';
    if (target === '') errs.push(fieldErrors.required(p.child('path'), ''));
    else errs.push(...validateLocalPath(target, p.child('path')));
    errs.push(...validateMode(num(item, 'mode'), p.child('mode')));
  }
  return errs;
}

function validateOneSource(key: string, source: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  switch (key) {
    case 'configMap':
      if ((str(source, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child('name'), ''));
      errs.push(...validateMode(num(source, 'defaultMode'), path.child('defaultMode')));
      errs.push(...validateKeyToPaths(source, path));
      break;
    case 'secret':
      if ((str(source, 'secretName') ?? '') === '')
        errs.push(fieldErrors.required(path.child('secretName'), ''));
      errs.push(...validateMode(num(source, 'defaultMode'), path.child('defaultMode')));
      errs.push(...validateKeyToPaths(source, path));
      break;
    case 'hostPath': {
      const target = str(source, 'path') ?? '';
      if (target === '') {
        errs.push(fieldErrors.required(path.child('path'), ''));
        break;
      }
      if (target.split('/').includes('..'))
        errs.push(fieldErrors.invalid(path.child('path'), target, "must not contain '..'"));
      const type = str(source, 'type');
      if (type !== undefined && !hostPathTypes.includes(type))
        errs.push(fieldErrors.notSupported(path.child('type'), type, hostPathTypes));
      break;
    }
    case 'persistentVolumeClaim':
      if ((str(source, 'claimName') ?? '') === '')
        errs.push(fieldErrors.required(path.child('claimName'), ''));
      break;
    case 'emptyDir': {
      const limit = source['sizeLimit'];
      if (limit !== undefined && limit !== null) {
        const q = quantityAt(limit, path.child('sizeLimit'));
        if (q instanceof FieldError) errs.push(q);
        else if (q.mantissa < 0n) {
          errs.push(
            fieldErrors.forbidden(
              path.child('sizeLimit'),
              'SizeLimit field must be a valid resource quantity',
            ),
          );
        }
      }
      break;
    }
    case 'downwardAPI':
      errs.push(...validateMode(num(source, 'defaultMode'), path.child('defaultMode')));
      for (const [i, item] of indexedObjs(source, 'items')) {
        const p = path.child('items').index(i);
        const target = str(item, 'path') ?? '';
        if (target === '') errs.push(fieldErrors.required(p.child('path'), ''));
        else errs.push(...validateLocalPath(target, p.child('path')));
        const ref = obj(item, 'fieldRef');
        if (ref !== undefined) errs.push(...validateFieldRef(ref, p.child('fieldRef'), volumeFieldPaths));
      }
      break;
    case 'projected':
      errs.push(...validateMode(num(source, 'defaultMode'), path.child('defaultMode')));
      break;
    default:
      break;
  }
  return errs;
}

/** The volume sources in the order upstream's validateVolumeSource checks them. */
const volumeSourceOrder: readonly (typeof volumeSourceKeys)[number][] = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
];
/** Where upstream reports "more than 1 volume type" when it differs from the JSON name. */
const forbiddenPath: Partial<Record<(typeof volumeSourceKeys)[number], string>> = {
  cephfs: 'cephFS',
  downwardAPI: 'downwarAPI',
};

/** Upstream validateVolumeSource: exactly one source, then that source's rules. */
export function validateVolumeSource(v: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const key of volumeSourceOrder) {
    const source = obj(v, key);
    if (source === undefined) continue;
    if (count > 0)
      errs.push(
        fieldErrors.forbidden(
          path.child(forbiddenPath[key] ?? key),
          'may not specify more than 1 volume type',
        ),
      );
    else errs.push(...validateOneSource(key, source, path.child(key)));
    count++;
  }
  if (count === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));
  return errs;
}

/** Validates `spec.volumes`; returns the errors and the names of the valid volumes. */
export function validateVolumes(
  spec: JsonObject,
  path: FieldPath,
): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, v] of indexedObjs(spec, 'volumes')) {
    const p = path.index(i);
    const namePath = p.child('name');
    const name = str(v, 'name') ?? '';
    const el = validateVolumeSource(v, p);
    if (name === '') el.push(fieldErrors.required(namePath, ''));
    else el.push(...validateDNS1123Label(name, namePath));
    if (names.has(name)) el.push(fieldErrors.duplicate(namePath, name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  }
  return { errs, names };
}
