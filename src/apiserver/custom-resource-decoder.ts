/**
 * Request bodies of custom resources (apiextensions-apiserver v0.27 crdHandler's
 * schemaCoercingConverter/unstructuredDecoder): no Go types, so no type errors here — the schema
 * validation reports them as 422 later. Fields the structural schema does not know are pruned and,
 * with duplicate fields, reported per `fieldValidation` (warnings, or a strict decoding error);
 * then the version's defaults are applied.
 */
import { scanDuplicateFields } from '../apis/decode/duplicates.js';
import { strictDecodingErrorMessage, strictDecodingWarnings } from '../apis/decode/messages.js';
import { apiErrors } from '../machinery/errors.js';
import type { KubeObject } from '../machinery/object.js';
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';
import { checkTypeMeta } from './decode-request.js';
import type { BodyDecoder } from './decode-request.js';

/** The schema work the decoder delegates, per served version. */
export interface CustomResourceDecoding {
  /** Removes the fields the version's schema does not know; returns their paths (`spec.foo`). */
  prune(version: string, obj: JsonObject): string[];
  /** Applies the version's defaults in place. */
  defaults(version: string, obj: JsonObject): void;
}

export function customResourceDecoder(decoding: CustomResourceDecoding): BodyDecoder {
  return ({ info, body, fieldValidation }) => {
    const raw = body.raw ?? '';
    const value = checkTypeMeta(info, body.value, raw, 'bytes' in body ? body.bytes : undefined);
    if (!isJsonObject(value['metadata'])) {
      if (value['metadata'] !== undefined && value['metadata'] !== null) {
        throw apiErrors.badRequest(
          `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: unable to decode metadata: expected an object`,
        );
      }
      value['metadata'] = {};
    }
    const unknownFields = decoding.prune(info.version, value);
    const duplicateFields =
      fieldValidation !== 'Ignore' && body.raw !== undefined
        ? scanDuplicateFields(body.raw).map((d) => d.path)
        : [];
    const findings = { unknownFields, duplicateFields };
    const warnings: string[] = [];
    if (fieldValidation === 'Strict') {
      const message = strictDecodingErrorMessage(findings);
      if (message !== undefined) {
        throw apiErrors.badRequest(
          `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${message}`,
        );
      }
    } else if (fieldValidation === 'Warn') {
      warnings.push(...strictDecodingWarnings(findings));
    }
    decoding.defaults(info.version, value);
    return { object: value as KubeObject, warnings };
  };
}
