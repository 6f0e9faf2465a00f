/** Shared shape of review answers: the request object back, with `status` and upstream's metadata. */
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';

/** The review as sent, answered: metadata gets `creationTimestamp: null` as upstream prints it. */
export function answered(review: KubeObject, status: JsonObject): KubeObject {
  return { ...review, metadata: { ...review.metadata, creationTimestamp: null }, status };
}
