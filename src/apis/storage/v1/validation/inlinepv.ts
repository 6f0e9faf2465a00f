/**
 * The subset of core ValidatePersistentVolumeSpec (release-1.27) that applies to a VolumeAttachment's
 * inline volume spec (validateInlinePersistentVolumeSpec=true). Approximation: the inline-context
 * rules, access modes, class name, volume mode, the one-source rule and the CSI source's driver,
 * volume handle and secret reference presence are checked; node affinity and the other (legacy)
 * volume sources' own fields are not.
 */
import type { FieldPath } from '../../../../machinery/field/errors.js';
import { fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import type { JsonObject } from '../../../../util/json.js';
import { isJsonObject } from '../../../../util/json.js';
import { obj, str, strArr } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { pvSourceKeys } from '../../../core/v1/validation/persistentvolume.js';
import { validateCSIDriverName } from './common.js';

const inlineDetail = 'may not be specified in the context of inline volumes';
/** ReadWriteOncePod is beta and on by default in v1.27. */
const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];
const csiSecretRefs = [
  'controllerPublishSecretRef',
  'nodeStageSecretRef',
  'nodePublishSecretRef',
  'controllerExpandSecretRef',
  'nodeExpandSecretRef',
] as const;

function validateCSISource(csi: JsonObject, path: FieldPath): FieldError[] {
  const errs = validateCSIDriverName(str(csi, 'driver') ?? '', path.child('driver'));
  if ((str(csi, 'volumeHandle') ?? '') === '')
    errs.push(fieldErrors.required(path.child('volumeHandle'), ''));
  for (const key of csiSecretRefs) {
    const ref = obj(csi, key);
    if (ref === undefined) continue;
    if ((str(ref, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child(key, 'name'), ''));
    if ((str(ref, 'namespace') ?? '') === '')
      errs.push(fieldErrors.required(path.child(key, 'namespace'), ''));
  }
  return errs;
}

export function validateInlinePersistentVolumeSpec(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (obj(spec, 'claimRef') !== undefined)
    errs.push(fieldErrors.forbidden(path.child('claimRef'), inlineDetail));
  const capacity = spec['capacity'];
  if (isJsonObject(capacity) && Object.keys(capacity).length > 0) {
    errs.push(fieldErrors.forbidden(path.child('capacity'), inlineDetail));
  }
  if (obj(spec, 'csi') === undefined) {
    errs.push(
      fieldErrors.required(path.child('csi'), 'has to be specified in the context of inline volumes'),
    );
  }
  const modes = strArr(spec, 'accessModes');
  if (modes.length === 0) errs.push(fieldErrors.required(path.child('accessModes'), ''));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!accessModes.includes(mode))
      errs.push(fieldErrors.notSupported(path.child('accessModes'), mode, accessModes));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (accessModes.includes(mode)) other = true;
  }
  if (rwop && other) {
    errs.push(
      fieldErrors.forbidden(
        path.child('accessModes'),
        'may not use ReadWriteOncePod with other access modes',
      ),
    );
  }
  const className = str(spec, 'storageClassName') ?? '';
  if (className.length > 0) {
    errs.push(...invalidEach(path.child('storageClassName'), className, isDNS1123Subdomain(className)));
  }
  const volumeMode = str(spec, 'volumeMode');
  if (volumeMode !== undefined && !volumeModes.includes(volumeMode)) {
    errs.push(fieldErrors.notSupported(path.child('volumeMode'), volumeMode, volumeModes));
  }
  let sources = 0;
  for (const key of pvSourceKeys) {
    const source = obj(spec, key);
    if (source === undefined) continue;
    if (sources > 0) {
      errs.push(fieldErrors.forbidden(path.child(key), 'may not specify more than 1 volume type'));
      continue;
    }
    sources++;
    if (key === 'csi') errs.push(...validateCSISource(source, path.child('csi')));
  }
  if (sources === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));
  return errs;
}
