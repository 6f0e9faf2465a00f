/**
 * A mutating webhook's patch applied to the object it was sent, as upstream's mutating dispatcher
 * does it (pkg/admission/plugin/webhook/mutating/dispatcher.go, callAttrMutatingHook): decode the
 * JSON patch, refuse a patch when the operation has no object, only `JSONPatch`, apply it to a
 * copy (machinery/patch/json-patch.ts: evanphx/json-patch's behaviour and texts). Errors are the
 * dispatcher's: InternalError for an undecodable or failing patch, a WebhookCallError carrying the
 * webhook's Status for an unsupported patch type.
 */
import { apiErrors } from '../../machinery/errors.js';
import type { StatusError } from '../../machinery/errors.js';
import { goJsonSyntaxError } from '../../machinery/gojson/syntax.js';
import {
  MAX_JSON_PATCH_OPERATIONS,
  applyJsonPatch,
  decodeJsonPatch,
} from '../../machinery/patch/json-patch.js';
import { isJsonObject, jsonEqual } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { WebhookCallError, webhookDenial } from './review.js';
import type { AdmissionResponse } from './review.js';

export interface PatchedObject {
  /** The patched object (a new tree; the input is not modified). */
  readonly object: JsonObject;
  /** Whether the patch changed anything (upstream compares the decoded objects). */
  readonly changed: boolean;
}

function internal(message: string): StatusError {
  return apiErrors.internal(new Error(message));
}

/** jsonpatch.DecodePatch over the patch bytes: Go's syntax errors, then the patch's shape. */
function decodePatch(bytes: Buffer): readonly JsonValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw internal(goJsonSyntaxError(bytes)?.message ?? 'unexpected end of JSON input');
  }
  try {
    if (Array.isArray(parsed) && parsed.length > MAX_JSON_PATCH_OPERATIONS) {
      // The operation bound belongs to the PATCH verb; a webhook's patch has none: shape only.
      for (const op of parsed as unknown[]) decodeJsonPatch([op]);
      return parsed as JsonValue[];
    }
    return decodeJsonPatch(parsed);
  } catch (err) {
    throw internal((err as Error).message);
  }
}

/**
 * Applies a verified response's patch to `object` (the versioned object the webhook was sent;
 * undefined when the operation carries none, e.g. a delete). Returns undefined when the response
 * has no patch or an empty one. Throws a StatusError (500 InternalError) for a patch that cannot
 * be decoded or applied, or for any patch at all when there is no object; a WebhookCallError for
 * a patch type other than JSONPatch.
 */
export function applyWebhookPatch(
  webhookName: string,
  object: JsonObject | undefined,
  response: AdmissionResponse,
): PatchedObject | undefined {
  if (response.patch === undefined || response.patch.length === 0) return undefined;
  const ops = decodePatch(response.patch);
  if (ops.length === 0) return undefined;
  if (object === undefined) {
    throw internal(
      `admission webhook ${JSON.stringify(webhookName)} attempted to modify the object, which is not supported for this operation`,
    );
  }
  if (response.patchType !== 'JSONPatch') {
    throw new WebhookCallError(
      webhookName,
      `unsupported patch type ${JSON.stringify(response.patchType)}`,
      webhookDenial(webhookName, response.result),
    );
  }
  let patched: JsonValue = object;
  try {
    // applyJsonPatch bounds one call to the PATCH verb's operation count; apply in slices of it.
    for (let i = 0; i < ops.length; i += MAX_JSON_PATCH_OPERATIONS) {
      patched = applyJsonPatch(patched, ops.slice(i, i + MAX_JSON_PATCH_OPERATIONS));
    }
  } catch (err) {
    throw internal((err as Error).message);
  }
  if (!isJsonObject(patched)) {
    // Upstream decodes the patched JSON back into an object and fails on anything else.
    const kind = Array.isArray(patched) ? 'array' : patched === null ? 'null' : typeof patched;
    throw internal(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  return { object: patched, changed: !jsonEqual(object, patched) };
}
