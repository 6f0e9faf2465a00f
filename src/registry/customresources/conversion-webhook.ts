/**
 * A CRD's conversion webhook (apiextensions-apiserver v0.27 pkg/apiserver/conversion/
 * webhook_converter.go): objects not yet at the desired apiVersion go in one ConversionReview
 * (apiextensions.k8s.io/v1 when the CRD accepts it, else v1beta1), and what comes back is
 * checked (uid, Success, count, group-version, kind, name/namespace/uid) with only labels and
 * annotations taken from the converted metadata. Errors carry upstream's texts.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';

/** Posts a ConversionReview to the CRD's webhook (clientConfig) and returns the decoded answer. */
export type WebhookPost = (clientConfig: JsonObject, review: JsonObject) => Promise<unknown>;

export interface WebhookConverterOptions {
  /** spec.conversion.webhook: clientConfig and conversionReviewVersions. */
  readonly webhook: JsonObject;
  readonly post: WebhookPost;
}

export class ConversionError extends Error {}

/** Go's GroupVersionKind.String(): "stable.example.com/v1, Kind=CronTab". */
function gvkString(obj: KubeObject): string {
  return `${obj.apiVersion}, Kind=${obj.kind}`;
}

function reviewVersion(webhook: JsonObject): string {
  const versions = Array.isArray(webhook['conversionReviewVersions'])
    ? webhook['conversionReviewVersions']
    : [];
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConversionError('no supported conversion review versions');
}

function str(o: JsonValue | undefined, k: string): string {
  const v = isJsonObject(o) ? o[k] : undefined;
  return typeof v === 'string' ? v : '';
}

/** The converted objects of a response, or upstream's error for it. */
function convertedObjectsOf(response: unknown, version: string, uid: string): JsonValue[] {
  if (!isJsonObject(response)) throw new ConversionError('no response provided');
  const expected = `apiextensions.k8s.io/${version}`;
  if (version === 'v1' && (response['apiVersion'] !== expected || response['kind'] !== 'ConversionReview')) {
    throw new ConversionError(
      `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${str(response, 'apiVersion')}, Kind=${str(response, 'kind')}`,
    );
  }
  const r = response['response'];
  if (!isJsonObject(r)) throw new ConversionError('no response provided');
  if (version === 'v1' && r['uid'] !== uid) {
    throw new ConversionError(`expected response.uid="${uid}", got "${str(r, 'uid')}"`);
  }
  const result = isJsonObject(r['result']) ? r['result'] : {};
  if (result['status'] !== 'Success') {
    const message = str(result, 'message');
    if (message !== '') throw new ConversionError(message);
    throw new ConversionError(`response.result.status was '${str(result, 'status')}', not 'Success'`);
  }
  return Array.isArray(r['convertedObjects']) ? r['convertedObjects'] : [];
}

/** restoreObjectMeta: the original metadata, with the converted labels and annotations. */
function restoreObjectMeta(original: KubeObject, converted: JsonObject): string | undefined {
  const meta = converted['metadata'];
  if (meta === undefined) return 'missing metadata in converted object';
  if (!isJsonObject(meta)) return `invalid metadata of type ${typeof meta} in converted object`;
  const restored: JsonObject = structuredClone(original.metadata);
  for (const field of ['labels', 'annotations']) {
    const v = meta[field];
    if (v === undefined || v === null) {
      delete restored[field];
      continue;
    }
    if (!isJsonObject(v)) return `invalid metadata.${field} of type ${typeof v} in converted object`;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string')
        return `metadata.${field}[${k}] must be a string, but is ${typeof x} in converted object`;
    }
    restored[field] = v;
  }
  converted['metadata'] = restored;
  return undefined;
}

function validateConverted(original: KubeObject, converted: JsonObject): string | undefined {
  const meta = isJsonObject(converted['metadata']) ? converted['metadata'] : {};
  const pairs: [string, unknown, unknown][] = [
    ['kind', original.kind, converted['kind']],
    ['name', original.metadata.name ?? '', meta['name'] ?? ''],
    ['namespace', original.metadata.namespace ?? '', meta['namespace'] ?? ''],
    ['UID', original.metadata.uid ?? '', meta['uid'] ?? ''],
  ];
  for (const [what, e, a] of pairs) {
    if (e !== a) return `must have the same ${what}: ${String(e)} != ${String(a)}`;
  }
  return undefined;
}

/**
 * Converts `objects` to `apiVersion` through the webhook; objects already there are left as
 * they are and no request is made when none needs converting.
 */
export async function convertThroughWebhook(
  o: WebhookConverterOptions,
  objects: readonly KubeObject[],
  apiVersion: string,
): Promise<KubeObject[]> {
  const todo = objects.filter((x) => x.apiVersion !== apiVersion);
  if (todo.length === 0) return [...objects];
  const first = todo[0]!;
  const gvk = gvkString(first);
  const version = reviewVersion(o.webhook);
  const uid = randomUUID();
  const clientConfig = isJsonObject(o.webhook['clientConfig']) ? o.webhook['clientConfig'] : {};
  const review: JsonObject = {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion: apiVersion, objects: todo as unknown as JsonValue[] },
  };
  let answer: unknown;
  try {
    answer = await o.post(clientConfig, review);
  } catch (err) {
    throw new ConversionError(
      `conversion webhook for ${gvk} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  let converted: JsonValue[];
  try {
    converted = convertedObjectsOf(answer, version, uid);
  } catch (err) {
    throw new ConversionError(`conversion webhook for ${gvk} failed: ${(err as Error).message}`);
  }
  if (converted.length !== todo.length) {
    throw new ConversionError(
      `conversion webhook for ${gvk} returned ${converted.length} objects, expected ${todo.length}`,
    );
  }
  const single = objects.length === 1;
  const gv = apiVersion;
  let next = 0;
  return objects.map((original) => {
    if (original.apiVersion === apiVersion) return original;
    const index = next++;
    const c = converted[index];
    const at = single ? 'object at index 0' : `converted object at index ${index}`;
    if (!isJsonObject(c)) throw new ConversionError(`conversion webhook for ${gvk} returned invalid ${at}`);
    const cv = str(c, 'apiVersion');
    if (cv !== gv) {
      throw new ConversionError(
        `conversion webhook for ${gvk} returned invalid ${at}: invalid groupVersion (expected ${gv}, received ${cv})`,
      );
    }
    if (str(c, 'kind') !== original.kind) {
      throw new ConversionError(
        `conversion webhook for ${gvk} returned invalid ${at}: invalid kind (expected ${original.kind}, received ${str(c, 'kind')})`,
      );
    }
    const invalid = validateConverted(original, c);
    if (invalid !== undefined) {
      throw new ConversionError(
        `conversion webhook for ${gvk} returned invalid ${single ? 'object' : `converted object at index ${index}`}: ${invalid}`,
      );
    }
    const meta = restoreObjectMeta(original, c);
    if (meta !== undefined) {
      throw new ConversionError(
        `conversion webhook for ${gvk} returned invalid metadata${single ? '' : ` in object at index ${index}`}: ${meta}`,
      );
    }
    return c as unknown as KubeObject;
  });
}
