/**
 * VolumeAttachment validation as pkg/apis/storage/validation (release-1.27), on storage/v1 JSON;
 * metadata (DNS subdomain names) is validated by the generic store first.
 */
import { FieldPath, fieldErrors, goQuote } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject } from '../../../../util/json.js';
import { isJsonObject, jsonEqual } from '../../../../util/json.js';
import { obj, str } from '../../../core/v1/access.js';
import { invalidEach } from '../../../core/v1/validation/common.js';
import { byteLen, goPointer, validateCSIDriverName } from './common.js';
import { validateInlinePersistentVolumeSpec } from './inlinepv.js';

const maxAttachedVolumeMetadataSize = 256 * (1 << 10);
const maxVolumeErrorMessageSize = 1024;

function validateSource(source: JsonObject | undefined, path: FieldPath): FieldError[] {
  const inline = obj(source, 'inlineVolumeSpec');
  const pvName = str(source, 'persistentVolumeName');
  const detail = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (inline === undefined && pvName === undefined) return [fieldErrors.required(path, detail)];
  if (inline !== undefined && pvName !== undefined) return [fieldErrors.forbidden(path, detail)];
  if (pvName !== undefined) {
    return pvName.length === 0
      ? [
          fieldErrors.required(
            path.child('persistentVolumeName'),
            'must specify non empty persistentVolumeName',
          ),
        ]
      : [];
  }
  return validateInlinePersistentVolumeSpec(inline ?? {}, path.child('inlineVolumeSpec'));
}

function validateVolumeError(e: JsonObject | undefined, path: FieldPath): FieldError[] {
  if (e === undefined) return [];
  // Upstream reports the metadata limit for an over-long message.
  return byteLen(str(e, 'message') ?? '') > maxVolumeErrorMessageSize
    ? [fieldErrors.tooLong(path.child('message'), '', maxAttachedVolumeMetadataSize)]
    : [];
}

function validateStatus(status: JsonObject | undefined): FieldError[] {
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  const metadata = status?.['attachmentMetadata'];
  if (isJsonObject(metadata)) {
    let size = 0;
    for (const [k, v] of Object.entries(metadata))
      size += byteLen(k) + (typeof v === 'string' ? byteLen(v) : 0);
    if (size > maxAttachedVolumeMetadataSize) {
      errs.push(fieldErrors.tooLong(path.child('attachmentMetadata'), '', maxAttachedVolumeMetadataSize));
    }
  }
  errs.push(...validateVolumeError(obj(status, 'attachError'), path.child('attachError')));
  errs.push(...validateVolumeError(obj(status, 'detachError'), path.child('detachError')));
  return errs;
}

/** Upstream ValidateVolumeAttachment after ValidateObjectMeta: spec, then status. */
export function validateVolumeAttachmentCommon(va: KubeObject): FieldError[] {
  const spec = obj(va, 'spec');
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if ((str(spec, 'attacher') ?? '') === '') errs.push(fieldErrors.required(path.child('attacher'), ''));
  errs.push(...validateSource(obj(spec, 'source'), path.child('source')));
  const nodeName = str(spec, 'nodeName') ?? '';
  errs.push(...invalidEach(path.child('nodeName'), nodeName, isDNS1123Subdomain(nodeName)));
  errs.push(...validateStatus(obj(va, 'status')));
  return errs;
}

/**
 * The registry's create validation: ValidateVolumeAttachment, then the stricter v1 checks
 * (ValidateVolumeAttachmentV1: the attacher is a CSI driver name, the PV name a DNS subdomain).
 */
export function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const errs = validateVolumeAttachmentCommon(va);
  const spec = obj(va, 'spec');
  errs.push(...validateCSIDriverName(str(spec, 'attacher') ?? '', FieldPath.root('spec.attacher')));
  const pvName = str(obj(spec, 'source'), 'persistentVolumeName');
  if (pvName !== undefined) {
    errs.push(
      ...invalidEach(FieldPath.root('spec.source.persistentVolumeName'), pvName, isDNS1123Subdomain(pvName)),
    );
  }
  return errs;
}

/** Go `%#v` of a storage.VolumeAttachmentSpec. */
function goSpec(spec: JsonObject | undefined): string {
  const source = obj(spec, 'source');
  return (
    `storage.VolumeAttachmentSpec{Attacher:${goQuote(str(spec, 'attacher') ?? '')}, ` +
    `Source:storage.VolumeAttachmentSource{PersistentVolumeName:${goPointer('string', source?.['persistentVolumeName'])}, ` +
    `InlineVolumeSpec:${goPointer('core.PersistentVolumeSpec', source?.['inlineVolumeSpec'])}}, ` +
    `NodeName:${goQuote(str(spec, 'nodeName') ?? '')}}`
  );
}

/**
 * The registry's update validation (main resource and /status): ValidateVolumeAttachment, then
 * upstream ValidateVolumeAttachmentUpdate, which validates the object again (its errors appear
 * twice) and keeps the spec read-only.
 */
export function validateVolumeAttachmentUpdate(va: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...validateVolumeAttachmentCommon(va), ...validateVolumeAttachmentCommon(va)];
  if (!jsonEqual(va['spec'], old['spec'])) {
    errs.push(invalidRendered(FieldPath.root('spec'), goSpec(obj(va, 'spec')), fieldImmutableErrorMsg));
  }
  return errs;
}
