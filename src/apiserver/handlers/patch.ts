/** PATCH: JSON patch, merge patch and strategic merge patch applied to the stored object. */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isPatchError } from '../../machinery/patch/errors.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import { readBody } from '../body.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import type { HandlerContext } from '../endpoint.js';
import { dryRun, queryString } from '../endpoint.js';
import { bodyMediaType, negotiateObject } from '../negotiate.js';
import { representObject } from '../representation.js';
import { writeObject } from '../response.js';
import { subresourceStrategy } from './subresource.js';

const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

export async function handlePatch(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateObject(ctx.req.headers.accept);
  const media = bodyMediaType(ctx.req.headers['content-type']);
  if (!patchTypes.includes(media)) {
    throw apiErrors.unsupportedMediaType(media, patchTypes);
  }
  const fieldValidation = fieldValidationOf(ctx.url);
  const text = (await readBody(ctx.req)).toString('utf8');
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (err) {
    throw apiErrors.badRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { info, store } = ctx.endpoint;
  const apply = (current: KubeObject): JsonValue => {
    switch (media) {
      case 'application/json-patch+json':
        return applyJsonPatch(current, patch);
      case 'application/merge-patch+json':
        return applyMergePatch(current, patch);
      default:
        if (!isJsonObject(patch)) throw apiErrors.badRequest('patch body must be a JSON object');
        return applyStrategicMergePatch({
          original: current,
          patch,
          registry: ctx.schemas,
          definition: info.definition,
        });
    }
  };
  const warnings: string[] = [];
  const result = await store.update(
    ctx.request.namespace,
    ctx.request.name,
    (current) => {
      if (current === undefined)
        throw apiErrors.notFound({ group: info.group, resource: info.resource }, ctx.request.name);
      let patched: JsonValue;
      try {
        patched = apply(current);
      } catch (err) {
        if (isPatchError(err)) throw err.toStatusError();
        throw err;
      }
      const typed = decodeTyped({ info, schemas: ctx.schemas, body: { value: patched }, fieldValidation });
      warnings.length = 0;
      warnings.push(...typed.warnings);
      return typed.object;
    },
    { dryRun: dryRun(ctx.url), ...subresourceStrategy(ctx) },
  );
  const out = representObject(result.object, negotiated, {
    convertor: store.resource.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  writeObject(ctx.res, 200, out, { format: negotiated.format, warnings: [...warnings, ...result.warnings] });
}
