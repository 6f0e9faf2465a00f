/** PATCH bodies of kube-apiserver v1.27: JSON patch, JSON merge patch, strategic merge patch. */
export { PatchError, isPatchError, patchErrorToStatusError, UNPROCESSABLE_MESSAGE } from './errors.js';
export type { PatchErrorKind } from './errors.js';
export {
  applyJsonPatch,
  decodeJsonPatch,
  MAX_JSON_PATCH_OPERATIONS,
  MAX_JSON_PATCH_COPY_BYTES,
} from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { applyStrategicMergePatch, decodeStrategicMergePatch } from './strategic-merge-patch.js';
