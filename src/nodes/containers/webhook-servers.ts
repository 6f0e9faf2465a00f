/**
 * agnhost v2.43's `webhook` and `crd-conversion-webhook` servers, as their sources answer: the
 * admission handlers the upstream AdmissionWebhook specs register (`/always-deny`, `/pods`,
 * `/configmaps`, `/mutating-configmaps`, `/custom-resource`, `/crd`, `/add-label`, …) and the
 * example converter of `stable.example.com` v1 ⇄ v2 at `/crdconvert`. Both serve only TLS, with
 * the certificate and key files their flags name (pod-connection.ts serves the handshake).
 *
 * Go's quirks are kept: a request whose Content-Type is not `application/json` gets an empty 200;
 * a handler that returns no response makes the server panic, which drops the connection
 * (HandlerPanic); `/always-allow-delay-5s` sleeps five seconds, a pod labelled `wait-forever`
 * is never answered.
 */
import { goJson, goJsonString } from '../../machinery/fieldpath/value.js';
import type { FieldValue } from '../../machinery/fieldpath/value.js';
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import { goJsonSyntaxError } from '../../machinery/gojson/syntax.js';
import { isJsonObject } from '../../util/json.js';
import { objAt, objsAt, strAt } from '../json.js';
import type { JsonObject } from '../../util/json.js';
import { HandlerPanic, UnknowableAnswer, goError, goNotFound, goReply } from './http-answer.js';
import type { Serve } from './http-servers.js';

/** A metav1.Status inside a response, as encoding/json writes it (ListMeta always `{}`). */
interface GoStatus {
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
}

function statusJson(s: GoStatus): string {
  const parts = ['"metadata":{}'];
  if (s.status !== undefined && s.status !== '') parts.push(`"status":${goJsonString(s.status)}`);
  if (s.message !== undefined && s.message !== '') parts.push(`"message":${goJsonString(s.message)}`);
  if (s.reason !== undefined && s.reason !== '') parts.push(`"reason":${goJsonString(s.reason)}`);
  if (s.code !== undefined && s.code !== 0) parts.push(`"code":${s.code}`);
  return `{${parts.join(',')}}`;
}

/** An admission/v1 AdmissionResponse; undefined is a handler's nil (the server then panics). */
interface AdmissionResponse {
  readonly allowed: boolean;
  readonly result?: GoStatus;
  /** A JSONPatch (sent base64, as Go marshals []byte). */
  readonly patch?: string;
  /** The handler sleeps this long first (Infinity: forever). */
  readonly delayMs?: number;
}

type Admit = (request: JsonObject) => AdmissionResponse | undefined;

/** A string field, '' when absent (Go's zero value). */
function str(o: JsonObject | undefined, k: string): string {
  return strAt(o, k) ?? '';
}

/** A string map as encoding/json decodes it into map[string]string (an error for other values). */
function goStringMap(v: unknown, field: string): Map<string, string> {
  const out = new Map<string, string>();
  if (v === undefined || v === null) return out;
  if (!isJsonObject(v)) throw new Error(`json: cannot unmarshal ${goKind(v)} into Go struct field ${field}`);
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    if (typeof x !== 'string')
      throw new Error(`json: cannot unmarshal ${goKind(x)} into Go struct field ${field} of type string`);
    out.set(k, x);
  }
  return out;
}

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v;
}

/** toV1AdmissionResponse: an error as a refusal with its text. */
function fromError(err: unknown): AdmissionResponse {
  return { allowed: false, result: { message: err instanceof Error ? err.message : String(err) } };
}

/** The GroupVersionResource of the request as Go prints metav1.GroupVersionResource (`%s`). */
function resourceOf(request: JsonObject): { group: string; version: string; resource: string } {
  const r = objAt(request, 'resource');
  return { group: str(r, 'group'), version: str(r, 'version'), resource: str(r, 'resource') };
}

function isCoreResource(request: JsonObject, resource: string): boolean {
  const r = resourceOf(request);
  return r.group === '' && r.version === 'v1' && r.resource === resource;
}

function goGVR(r: { group: string; version: string; resource: string }): string {
  return `{${r.group} ${r.version} ${r.resource}}`;
}

/** The object under review (`oldObject` for a DELETE where asked). */
function reviewed(request: JsonObject, oldOnDelete: boolean): JsonObject {
  const which = oldOnDelete && str(request, 'operation') === 'DELETE' ? 'oldObject' : 'object';
  return objAt(request, which) ?? {};
}

function labelsOf(o: JsonObject): Map<string, string> {
  return goStringMap(objAt(o, 'metadata')?.['labels'], 'metadata.labels');
}

const podsInitContainerPatch = `[
		 {"op":"add","path":"/spec/initContainers","value":[{"image":"webhook-added-image","name":"webhook-added-init-container","resources":{}}]}
	]`;

function containerNames(pod: JsonObject, field: 'containers' | 'initContainers'): string[] {
  return objsAt(objAt(pod, 'spec'), field).map((c) => str(c, 'name'));
}

/** agnhost webhook's handlers by path (alwaysallow.go … crd.go). */
function admitters(sidecarImage: string): ReadonlyMap<string, Admit> {
  const onPods =
    (should: (pod: JsonObject) => boolean, patch: string): Admit =>
    (request) => {
      if (!isCoreResource(request, 'pods')) return undefined;
      const pod = reviewed(request, false);
      return { allowed: true, ...(should(pod) ? { patch } : {}) };
    };
  const dataStages =
    (stage: (data: Map<string, string>) => string | undefined, field: string): Admit =>
    (request) => {
      let data: Map<string, string>;
      try {
        data = goStringMap(caseInsensitive(reviewed(request, false), 'data'), field);
      } catch (err) {
        return fromError(err);
      }
      const patch = stage(data);
      return { allowed: true, ...(patch !== undefined ? { patch } : {}) };
    };
  const stagePatch = (data: Map<string, string>): string | undefined => {
    let patch: string | undefined;
    if (data.get('mutation-start') === 'yes')
      patch = `[
         { "op": "add", "path": "/data/mutation-stage-1", "value": "yes" }
     ]`;
    if (data.get('mutation-stage-1') === 'yes')
      patch = `[
         { "op": "add", "path": "/data/mutation-stage-2", "value": "yes" }
     ]`;
    return patch;
  };
  const denyData =
    (what: string, field: string): Admit =>
    (request) => {
      let data: Map<string, string>;
      try {
        data = goStringMap(caseInsensitive(reviewed(request, true), 'data'), field);
      } catch (err) {
        return fromError(err);
      }
      const op = str(request, 'operation');
      const v = data.get('webhook-e2e-test');
      if (v === 'webhook-disallow' && (op === 'CREATE' || op === 'UPDATE')) {
        return {
          allowed: false,
          result: {
            reason: `the ${what} contains unwanted ${what === 'configmap' ? 'key and value' : 'data'}`,
          },
        };
      }
      if (v === 'webhook-nondeletable' && op === 'DELETE') {
        return {
          allowed: false,
          result: { reason: `the ${what} cannot be deleted because it contains unwanted key and value` },
        };
      }
      return { allowed: true };
    };
  return new Map<string, Admit>([
    [
      '/always-allow-delay-5s',
      () => ({ allowed: true, result: { message: 'this webhook allows all requests' }, delayMs: 5000 }),
    ],
    ['/always-deny', () => ({ allowed: false, result: { message: 'this webhook denies all requests' } })],
    [
      '/add-label',
      (request) => {
        let labels: Map<string, string>;
        try {
          labels = labelsOf(objAt(request, 'object') ?? {});
        } catch (err) {
          return fromError(err);
        }
        const value = labels.get('added-label');
        if (labels.size === 0)
          return {
            allowed: true,
            patch: `[
         { "op": "add", "path": "/metadata/labels", "value": {"added-label": "yes"}}
     ]`,
          };
        if (value === undefined)
          return {
            allowed: true,
            patch: `[
         { "op": "add", "path": "/metadata/labels/added-label", "value": "yes" }
     ]`,
          };
        if (value !== 'yes')
          return {
            allowed: true,
            patch: `[
         { "op": "replace", "path": "/metadata/labels/added-label", "value": "yes" }
     ]`,
          };
        return { allowed: true };
      },
    ],
    [
      '/pods',
      (request) => {
        if (!isCoreResource(request, 'pods')) {
          return fromError(
            new Error(`expect resource to be ${goGVR({ group: '', version: 'v1', resource: 'pods' })}`),
          );
        }
        const pod = reviewed(request, false);
        let labels: Map<string, string>;
        try {
          labels = labelsOf(pod);
        } catch (err) {
          return fromError(err);
        }
        let allowed = true;
        let msg = '';
        let delayMs: number | undefined;
        const v = labels.get('webhook-e2e-test');
        if (v === 'webhook-disallow') {
          allowed = false;
          msg += 'the pod contains unwanted label; ';
        }
        if (v === 'wait-forever') {
          allowed = false;
          msg += 'the pod response should not be sent; ';
          delayMs = Infinity;
        }
        for (const name of containerNames(pod, 'containers')) {
          if (name.includes('webhook-disallow')) {
            allowed = false;
            msg += 'the pod contains unwanted container name; ';
          }
        }
        return {
          allowed,
          ...(!allowed ? { result: { message: msg.trim() } } : {}),
          ...(delayMs !== undefined ? { delayMs } : {}),
        };
      },
    ],
    [
      '/pods/attach',
      (request) => {
        if (str(request, 'name') !== 'to-be-attached-pod') return { allowed: true };
        const r = resourceOf(request);
        if (!isCoreResource(request, 'pods')) {
          return fromError(
            new Error(
              `expect resource to be ${goGVR({ group: '', version: 'v1', resource: 'pods' })}, got ${goGVR(r)}`,
            ),
          );
        }
        const sub = str(request, 'subResource');
        if (sub !== 'attach') return fromError(new Error(`expect subresource to be attach, got ${sub}`));
        const options = objAt(request, 'object') ?? {};
        if (options['stdin'] !== true || str(options, 'container') !== 'container1') return { allowed: true };
        return {
          allowed: false,
          result: { message: "attaching to pod 'to-be-attached-pod' is not allowed" },
        };
      },
    ],
    [
      '/mutating-pods',
      onPods(
        (pod) =>
          str(objAt(pod, 'metadata'), 'name') === 'webhook-to-be-mutated' &&
          !containerNames(pod, 'initContainers').includes('webhook-added-init-container'),
        podsInitContainerPatch,
      ),
    ],
    [
      '/mutating-pods-sidecar',
      sidecarImage === ''
        ? () => ({
            allowed: false,
            result: {
              status: 'Failure',
              message: 'No image specified by the sidecar-image parameter',
              code: 500,
            },
          })
        : onPods(
            (pod) => !containerNames(pod, 'containers').includes('webhook-added-sidecar'),
            `[
		{"op":"add", "path":"/spec/containers/-","value":{"image":"${sidecarImage}","name":"webhook-added-sidecar","resources":{}}}
	]`,
          ),
    ],
    [
      '/configmaps',
      (request) =>
        isCoreResource(request, 'configmaps') ? denyData('configmap', 'ConfigMap.data')(request) : undefined,
    ],
    [
      '/mutating-configmaps',
      (request) =>
        isCoreResource(request, 'configmaps') ? dataStages(stagePatch, 'ConfigMap.data')(request) : undefined,
    ],
    ['/custom-resource', denyData('custom resource', '.Data')],
    ['/mutating-custom-resource', dataStages(stagePatch, '.Data')],
    [
      '/crd',
      (request) => {
        const r = resourceOf(request);
        const known =
          r.group === 'apiextensions.k8s.io' &&
          (r.version === 'v1' || r.version === 'v1beta1') &&
          r.resource === 'customresourcedefinitions';
        if (!known) {
          return fromError(
            new Error(
              `expect resource to be one of [{apiextensions.k8s.io v1beta1 customresourcedefinitions}, {apiextensions.k8s.io v1 customresourcedefinitions}] but got ${goGVR(r)}`,
            ),
          );
        }
        let labels: Map<string, string>;
        try {
          labels = labelsOf(objAt(request, 'object') ?? {});
        } catch (err) {
          return fromError(err);
        }
        return labels.get('webhook-e2e-test') === 'webhook-disallow'
          ? { allowed: false, result: { message: 'the crd contains unwanted label' } }
          : { allowed: true };
      },
    ],
  ]);
}

/** A field as encoding/json finds it for a struct field of that name: exact, else case-insensitive. */
function caseInsensitive(o: JsonObject, name: string): unknown {
  if (name in o) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

const schemeName = 'k8s.io/kubernetes/test/images/agnhost/webhook/scheme.go:30';

/** The kinds agnhost webhook's scheme decodes (core/v1 and admission(registration) v1, v1beta1). */
function registered(apiVersion: string): boolean {
  return [
    'v1',
    'admission.k8s.io/v1',
    'admission.k8s.io/v1beta1',
    'admissionregistration.k8s.io/v1',
    'admissionregistration.k8s.io/v1beta1',
  ].includes(apiVersion);
}

/** The UniversalDeserializer's verdict on a body: its apiVersion and kind, or why it cannot decode it. */
function decodeTyped(
  body: string,
): { review: JsonObject; apiVersion: string; kind: string } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const why = goJsonSyntaxError(Buffer.from(body))?.message ?? 'unexpected end of JSON input';
    return { error: `couldn't get version/kind; json parse error: ${why}` };
  }
  if (!isJsonObject(parsed)) {
    return {
      error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goKind(parsed)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    };
  }
  const apiVersion = str(parsed, 'apiVersion');
  const kind = str(parsed, 'kind');
  if (kind === '') return { error: `Object 'Kind' is missing in '${body}'` };
  if (!registered(apiVersion)) {
    return { error: `no kind "${kind}" is registered for version "${apiVersion}" in scheme "${schemeName}"` };
  }
  return { review: parsed, apiVersion, kind };
}

/** Go's `%v` of a GroupVersionKind: `admission.k8s.io/v1, Kind=AdmissionReview`. */
function goGVK(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
}

function responseJson(uid: string, r: AdmissionResponse): string {
  const parts = [`"uid":${goJsonString(uid)}`, `"allowed":${r.allowed}`];
  if (r.result !== undefined) parts.push(`"status":${statusJson(r.result)}`);
  if (r.patch !== undefined) {
    parts.push(`"patch":"${Buffer.from(r.patch).toString('base64')}"`, `"patchType":"JSONPatch"`);
  }
  return `{${parts.join(',')}}`;
}

/** agnhost `webhook`: the admission handlers by exact path; everything else is Go's 404. */
export function admissionWebhookServe(sidecarImage: string): Serve {
  const handlers = admitters(sidecarImage);
  return (req: SimHttpRequest, ctx): SimHttpResponse => {
    if (req.path === '/readyz') return goReply(200, 'ok', {}, ctx.now);
    const admit = handlers.get(req.path);
    if (admit === undefined) return goNotFound(ctx.now);
    // serve(): anything but exactly application/json is logged and left unanswered (an empty 200).
    if ((req.headers['content-type'] ?? '') !== 'application/json') return goReply(200, '', {}, ctx.now);
    const decoded = decodeTyped(req.body);
    if ('error' in decoded) return goError(400, `Request could not be decoded: ${decoded.error}`, ctx.now);
    const { review, apiVersion, kind } = decoded;
    if (kind !== 'AdmissionReview' || !apiVersion.startsWith('admission.k8s.io/')) {
      return goError(400, `Unsupported group version kind: ${goGVK(apiVersion, kind)}`, ctx.now);
    }
    // A review without a request makes the handler dereference nil: the server panics.
    const request = objAt(review, 'request');
    if (request === undefined)
      throw new HandlerPanic('runtime error: invalid memory address or nil pointer dereference');
    const response = admit(request);
    if (response === undefined)
      throw new HandlerPanic('runtime error: invalid memory address or nil pointer dereference');
    const body = `{"kind":"AdmissionReview","apiVersion":${goJsonString(apiVersion)},"response":${responseJson(str(request, 'uid'), response)}}`;
    const answer = goReply(200, body, { 'Content-Type': 'application/json' }, ctx.now);
    return response.delayMs !== undefined ? { ...answer, delayMs: response.delayMs } : answer;
  };
}

// ---------------------------------------------------------------------------------------------
// crd-conversion-webhook

/** Go's `%s` of a value decoded into interface{} (a string as it is, others as fmt flags them). */
function goPercentS(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return `%!s(${Number.isInteger(v) ? 'int64' : 'float64'}=${v})`;
  if (typeof v === 'boolean') return `%!s(bool=${v})`;
  if (v === null) return '%!s(<nil>)';
  return `%!s(${goKind(v)})`;
}

type Converted = { readonly object: JsonObject } | { readonly failure: string };

/** example_converter.go: stable.example.com v1 `hostPort` ⇄ v2 `host` and `port`. */
function convertExample(o: JsonObject, toVersion: string): Converted {
  const from = str(o, 'apiVersion');
  if (toVersion === from) {
    return { failure: `conversion from a version to itself should not call the webhook: ${toVersion}` };
  }
  const out: JsonObject = { ...o };
  if (from === 'stable.example.com/v1') {
    if (toVersion !== 'stable.example.com/v2')
      return { failure: `unexpected conversion version ${goJsonString(toVersion)}` };
    if ('hostPort' in out) {
      const hostPort = out['hostPort'];
      delete out['hostPort'];
      // hostPort.(string): any other type panics the handler.
      if (typeof hostPort !== 'string')
        throw new HandlerPanic('interface conversion: interface {} is not string');
      const parts = hostPort.split(':');
      if (parts.length !== 2) return { failure: `invalid hostPort value \`${hostPort}\`` };
      out['host'] = parts[0]!;
      out['port'] = parts[1]!;
    }
    return { object: out };
  }
  if (from === 'stable.example.com/v2') {
    if (toVersion !== 'stable.example.com/v1')
      return { failure: `unexpected conversion version ${goJsonString(toVersion)}` };
    const hasHost = 'host' in out;
    const hasPort = 'port' in out;
    if (hasHost || hasPort) {
      out['hostPort'] = `${hasHost ? goPercentS(out['host']) : ''}:${hasPort ? goPercentS(out['port']) : ''}`;
      delete out['host'];
      delete out['port'];
    }
    return { object: out };
  }
  return { failure: `unexpected conversion version ${goJsonString(from)}` };
}

/** goautoneg's pick between application/json and application/yaml for an Accept header. */
function acceptsJson(accept: string): 'json' | 'yaml' | undefined {
  if (accept === '') return 'json';
  const clauses = accept
    .split(',')
    .map((c) => {
      const [type = '', ...params] = c.split(';').map((p) => p.trim());
      const q = params.find((p) => p.startsWith('q='));
      const [t = '', sub = ''] = type.split('/');
      return { t, sub, q: q === undefined ? 1 : Number(q.slice(2)) };
    })
    .filter((c) => c.t !== '')
    .sort((a, b) => b.q - a.q);
  for (const c of clauses) {
    if (c.t === 'application' && c.sub === 'json') return 'json';
    if (c.t === 'application' && c.sub === 'yaml') return 'yaml';
    // application/* or */*: Go ranges over its serializer map, whose order is random; JSON here.
    if ((c.t === 'application' && c.sub === '*') || (c.t === '*' && c.sub === '*')) return 'json';
  }
  return undefined;
}

/** agnhost `crd-conversion-webhook`: `/crdconvert` and `/readyz`. */
export function crdConversionServe(): Serve {
  return (req, ctx) => {
    if (req.path === '/readyz') return goReply(200, 'ok', {}, ctx.now);
    if (req.path !== '/crdconvert') return goNotFound(ctx.now);
    const contentType = req.headers['content-type'] ?? '';
    if (contentType !== 'application/json' && contentType !== 'application/yaml') {
      return goError(400, `invalid Content-Type header \`${contentType}\``, ctx.now);
    }
    if (contentType === 'application/yaml') {
      throw new UnknowableAnswer('the simulated crd-conversion-webhook reads JSON reviews only');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.body);
    } catch {
      return goError(
        400,
        `failed to deserialize body (${req.body}) with error couldn't get version/kind; json parse error`,
        ctx.now,
      );
    }
    const review = isJsonObject(parsed) ? parsed : {};
    const apiVersion = str(review, 'apiVersion');
    const kind = str(review, 'kind');
    if (
      kind !== 'ConversionReview' ||
      !['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'].includes(apiVersion)
    ) {
      return goError(400, `Unsupported group version kind: ${goGVK(apiVersion, kind)}`, ctx.now);
    }
    const request = objAt(review, 'request');
    if (request === undefined)
      throw new HandlerPanic('runtime error: invalid memory address or nil pointer dereference');
    const desired = str(request, 'desiredAPIVersion');
    const objects = Array.isArray(request['objects']) ? request['objects'] : [];
    const converted: JsonObject[] = [];
    let failure: string | undefined;
    for (const o of objects) {
      if (!isJsonObject(o) || str(o, 'kind') === '') {
        failure = `failed to unmarshall object (${JSON.stringify(o)}) with error: Object 'Kind' is missing in '${JSON.stringify(o)}'`;
        break;
      }
      const c = convertExample(o, desired);
      if ('failure' in c) {
        failure = c.failure;
        break;
      }
      converted.push({ ...c.object, apiVersion: desired });
    }
    const result =
      failure === undefined
        ? statusJson({ status: 'Success' })
        : statusJson({ status: 'Failure', message: failure });
    const convertedJson =
      failure === undefined && converted.length > 0
        ? `[${converted.map((c) => goJson(c as FieldValue)).join(',')}]`
        : 'null';
    const output = acceptsJson(req.headers['accept'] ?? '');
    if (output === undefined) {
      return goError(400, `invalid accept header \`${req.headers['accept'] ?? ''}\``, ctx.now);
    }
    if (output === 'yaml')
      throw new UnknowableAnswer('the simulated crd-conversion-webhook writes JSON only');
    const body = `{"kind":"ConversionReview","apiVersion":${goJsonString(apiVersion)},"request":{"uid":"","desiredAPIVersion":"","objects":null},"response":{"uid":${goJsonString(str(request, 'uid'))},"convertedObjects":${convertedJson},"result":${result}}}\n`;
    return goReply(200, body, {}, ctx.now);
  };
}
