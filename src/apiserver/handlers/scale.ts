/** The `/scale` subresource (autoscaling/v1 Scale) of workloads: get, update and patch. */
import { apiVersionOf } from '../../apis/resource.js';
import type { ScaleSubresource } from '../../apis/resource.js';
import { apiErrors } from '../../machinery/errors.js';
import { fieldErrors } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isPatchError } from '../../machinery/patch/errors.js';
import { applyJsonPatch } from '../../machinery/patch/json-patch.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';
import { formatLabelSelector } from '../../registry/printers/selectors.js';
import { cloneJson, isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { decodeBody, readBody } from '../body.js';
import type { HandlerContext } from '../endpoint.js';
import { fieldValidationOf } from '../decode-request.js';
import { dryRun } from '../endpoint.js';
import { negotiateObject, isPrettyPrint } from '../negotiate.js';
import { writeObject } from '../response.js';
import { auditAnnotator, auditRequestObject, auditRequestPatch } from '../audit/recorder.js';
import { applyPatchType, patchMediaType, readPatch } from './patch-body.js';
import { checkFieldManagerOptions, fieldManagerFor, forceOf, managerOrUserAgent } from '../managed-fields.js';
import { checkApplyConfig } from '../../machinery/managedfields/field-manager.js';

function at(obj: JsonValue | undefined, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = obj;
  for (const p of path.split('.').filter((x) => x.length > 0)) {
    if (!isJsonObject(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

function setAt(obj: JsonObject, path: string, value: JsonValue): void {
  const parts = path.split('.').filter((x) => x.length > 0);
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    if (isJsonObject(next)) cur = next;
    else cur = cur[p] = {};
  }
  cur[parts[parts.length - 1]!] = value;
}

export function scaleOf(obj: KubeObject, scale: ScaleSubresource): JsonObject {
  const m = obj.metadata;
  const spec = at(obj, scale.specReplicasPath);
  const status = at(obj, scale.statusReplicasPath);
  const sel = scale.labelSelectorPath !== undefined ? at(obj, scale.labelSelectorPath) : undefined;
  const selector = isJsonObject(sel) ? formatLabelSelector(sel) : typeof sel === 'string' ? sel : '';
  const metadata: JsonObject = { name: m.name ?? '' };
  if (m.namespace !== undefined) metadata['namespace'] = m.namespace;
  metadata['uid'] = m.uid ?? '';
  metadata['resourceVersion'] = m.resourceVersion ?? '';
  metadata['creationTimestamp'] = m.creationTimestamp ?? null;
  const statusOut: JsonObject = { replicas: typeof status === 'number' ? status : 0 };
  if (selector !== '') statusOut['selector'] = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof spec === 'number' ? spec : 0 },
    status: statusOut,
  };
}

export async function handleScale(ctx: HandlerContext): Promise<void> {
  const negotiated = negotiateObject(ctx.req.headers.accept);
  const { store, info } = ctx.endpoint;
  const scale = info.scale;
  if (scale === undefined) throw apiErrors.notFoundPath();
  const { namespace, name, verb } = ctx.request;
  if (verb === 'get') {
    writeObject(ctx.res, 200, scaleOf(await store.get(namespace, name), scale), {
      format: negotiated.format,
      pretty: isPrettyPrint(ctx.req),
    });
    return;
  }
  if (verb !== 'update' && verb !== 'patch') {
    throw apiErrors.methodNotSupported({ group: info.group, resource: `${info.resource}/scale` }, verb);
  }
  const fm = fieldManagerFor(ctx);
  const manager = managerOrUserAgent(ctx);
  let body: unknown;
  let media = '';
  if (verb === 'update') {
    body = decodeBody(ctx.req.headers['content-type'], await readBody(ctx.req), {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
    }).value;
  } else {
    media = patchMediaType(ctx.req);
    body = await readPatch(ctx.req, media, fieldValidationOf(ctx.url));
  }
  if (verb === 'update') auditRequestObject(ctx.req, body);
  else auditRequestPatch(ctx.req, body);
  const isApply = media === applyPatchType;
  checkFieldManagerOptions(ctx, verb === 'update' ? 'UpdateOptions' : 'PatchOptions', isApply);
  const force = isApply ? forceOf(ctx.url) : false;
  if (isApply) checkApplyConfig(body, 'autoscaling/v1');
  const result = await store.update(
    namespace,
    name,
    (current) => {
      if (current === undefined)
        throw apiErrors.notFound({ group: info.group, resource: info.resource }, name);
      const before = scaleOf(current, scale);
      let desired: JsonValue;
      try {
        if (verb === 'update' || isApply) desired = body as JsonValue;
        else if (media === 'application/json-patch+json') desired = applyJsonPatch(before, body);
        else desired = applyMergePatch(before, body);
      } catch (err) {
        if (isPatchError(err)) throw err.toStatusError();
        throw err;
      }
      // A body (or patch result) that is no object must not read as "replicas: 0".
      if (!isJsonObject(desired)) {
        throw apiErrors.badRequest(`Object 'Kind' is missing in '${JSON.stringify(desired).slice(0, 200)}'`);
      }
      // Upstream validates the Scale's ObjectMeta: a Scale without a name changes nothing.
      const scaleName = at(desired, 'metadata.name');
      if (typeof scaleName !== 'string' || scaleName === '') {
        throw apiErrors.invalid({ group: 'autoscaling', kind: 'Scale' }, name, [
          fieldErrors.required('metadata.name', 'name or generateName is required'),
        ]);
      }
      const replicas = at(desired, 'spec.replicas');
      if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
        throw apiErrors.badRequest(
          'Scale in version "v1" cannot be handled as a Scale: spec.replicas must be an integer',
        );
      }
      if (typeof replicas === 'number' && replicas < 0) {
        throw apiErrors.invalid({ group: 'autoscaling', kind: 'Scale' }, name, [
          fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'),
        ]);
      }
      const rv = at(desired, 'metadata.resourceVersion');
      // A deep copy: the strategy compares it with `current` (a changed spec bumps generation).
      const obj = cloneJson(current);
      if (typeof rv === 'string' && rv !== '') obj.metadata.resourceVersion = rv;
      if (isApply) {
        // Upstream's ScaleHandler: the Scale's apply is the parent's, owning its replicas, with
        // subresource "scale" (conflicts with whoever else owns them).
        const config: JsonObject = {
          apiVersion: apiVersionOf(info),
          kind: info.kind,
          metadata: { name, ...(typeof rv === 'string' && rv !== '' ? { resourceVersion: rv } : {}) },
        };
        if (typeof replicas === 'number') setAt(config, scale.specReplicasPath, replicas);
        return fm.apply(current, config, manager, force);
      }
      setAt(obj, scale.specReplicasPath, typeof replicas === 'number' ? replicas : 0);
      // Upstream's scale handler: the writer owns the replicas of the parent, as an Update
      // entry with subresource "scale" at the parent's version.
      return fm.update(current, obj, manager);
    },
    // Admission sees an update of the `scale` subresource (the plugins that look at workloads skip it).
    {
      dryRun: dryRun(ctx.url),
      user: ctx.user,
      subresource: 'scale',
      ...auditAnnotator(ctx.req),
      signal: ctx.signal,
    },
  );
  writeObject(ctx.res, 200, scaleOf(result.object, scale), {
    format: negotiated.format,
    pretty: isPrettyPrint(ctx.req),
    warnings: result.warnings,
  });
}
