/**
 * PATCH: JSON patch, merge patch and strategic merge patch applied to the stored object, and
 * server-side apply (`application/apply-patch+yaml`, which creates a missing object).
 */
import { apiErrors } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isPatchError } from '../../machinery/patch/errors.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import { decodeTyped, fieldValidationOf } from '../decode-request.js';
import type { HandlerContext } from '../endpoint.js';
import { dryRun, queryString } from '../endpoint.js';
import { negotiateFor, isPrettyPrint } from '../negotiate.js';
import { representObject } from '../representation.js';
import { writeObject } from '../response.js';
import { applyPatchType, patchMediaType, readPatch } from './patch-body.js';
import { auditAnnotator, auditRequestPatch } from '../audit/recorder.js';
import { checkFieldManagerOptions, fieldManagerFor, forceOf, managerOrUserAgent } from '../managed-fields.js';
import { sentManagedFields } from '../../machinery/managedfields/field-manager.js';
import { subresourceStrategy } from './subresource.js';

export async function handlePatch(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateFor(ctx.req.headers.accept, ctx.endpoint.info);
  const media = patchMediaType(ctx.req);
  const isApply = media === applyPatchType;
  checkFieldManagerOptions(ctx, 'PatchOptions', isApply);
  const force = isApply ? forceOf(ctx.url) : false;
  const fieldValidation = fieldValidationOf(ctx.url);
  // Warnings about the patch document itself (repeated keys in an apply YAML).
  const patchWarnings: string[] = [];
  const patch = await readPatch(ctx.req, media, fieldValidation, patchWarnings);
  auditRequestPatch(ctx.req, patch);
  const { info, store } = ctx.endpoint;
  const fm = fieldManagerFor(ctx);
  const manager = managerOrUserAgent(ctx);
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
      if (isApply) {
        const applied = fm.apply(current, patch, manager, force);
        const typed = (ctx.endpoint.decode ?? decodeTyped)({
          info,
          schemas: ctx.schemas,
          body: { value: applied as unknown as JsonValue },
          fieldValidation,
        });
        warnings.length = 0;
        warnings.push(...typed.warnings);
        return typed.object;
      }
      if (current === undefined)
        throw apiErrors.notFound({ group: info.group, resource: info.resource }, ctx.request.name);
      let patched: JsonValue;
      try {
        patched = apply(current);
      } catch (err) {
        if (isPatchError(err)) throw err.toStatusError();
        // The patch algorithms recurse per nesting level: a patch nested close to the 10000 levels
        // the body may have can exhaust the stack. That is the request's shape, not a server fault.
        if (err instanceof RangeError) throw apiErrors.badRequest('error applying patch: exceeded max depth');
        throw err;
      }
      const typed = (ctx.endpoint.decode ?? decodeTyped)({
        info,
        schemas: ctx.schemas,
        body: { value: patched },
        fieldValidation,
      });
      warnings.length = 0;
      warnings.push(...typed.warnings);
      return fm.update(current, typed.object, manager, sentManagedFields(patched));
    },
    {
      dryRun: dryRun(ctx.url),
      user: ctx.user,
      ...auditAnnotator(ctx.req),
      signal: ctx.signal,
      ...subresourceStrategy(ctx),
      ...(isApply ? { forceAllowCreate: true } : {}),
    },
  );
  const out = representObject(result.object, negotiated, {
    convertor: store.table,
    includeObject: queryString(ctx.url, 'includeObject') ?? 'Metadata',
  });
  writeObject(ctx.res, result.created ? 201 : 200, out, {
    format: negotiated.format,
    pretty: isPrettyPrint(ctx.req),
    warnings: [...patchWarnings, ...warnings, ...result.warnings],
  });
}
