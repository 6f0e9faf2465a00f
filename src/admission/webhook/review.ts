/**
 * The AdmissionReview exchange with one admission webhook, as k8s.io/apiserver v0.27 does it
 * (pkg/admission/plugin/webhook/request/admissionreview.go, errors/statuserror.go,
 * pkg/util/webhook/error.go):
 *
 * - `createAdmissionReview` picks the first review version the webhook accepts (v1, v1beta1), a
 *   fresh uid, and builds the `admission.k8s.io/<version>` AdmissionReview request body;
 * - `decodeAdmissionReview` reads the decoded JSON answer the way the webhook REST client decodes
 *   it into the expected AdmissionReview type (Go's type errors, base64 patches, foreign kinds);
 * - `verifyAdmissionResponse` is upstream's VerifyAdmissionResponse (uid, apiVersion/kind, patch
 *   and patchType rules) with its exact messages; `readAdmissionResponse` does both and wraps
 *   failures as the dispatchers do;
 * - `webhookCallError` (ErrCallingWebhook), `webhookDenial` (ToStatusErr) and
 *   `dryRunUnsupportedError` give the errors the dispatchers return.
 *
 * Version conversion of the object and of kind/resource is the caller's (the webhook plugin's):
 * this module takes them already in the webhook's version.
 */
import { randomUUID } from 'node:crypto';
import { StatusError, apiErrors } from '../../machinery/errors.js';
import type { StatusDetails, StatusReason } from '../../machinery/status.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { GroupVersionKind, GroupVersionResource } from '../../machinery/admission-attributes.js';

export type AdmissionReviewVersion = 'v1' | 'v1beta1';

/** What a request addresses, in one version: its kind, resource and subresource. */
export interface AdmissionTarget {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource: string;
}

export interface AdmissionReviewInput {
  /** The webhook's `admissionReviewVersions`, in its order of preference. */
  readonly admissionReviewVersions: readonly string[];
  readonly attributes: AdmissionAttributes;
  /** Kind, resource and subresource as the webhook matched them (`kind`, `resource`, `subResource`). */
  readonly matched: AdmissionTarget;
  /** The request's own (`requestKind`, `requestResource`, `requestSubResource`). */
  readonly request: AdmissionTarget;
  /**
   * The object in the matched kind's version. Absent: `attributes.object` as it is (right when no
   * conversion was needed); `null` sends none.
   */
  readonly object?: JsonObject | null;
  /** The stored object, likewise (absent: `attributes.oldObject`). */
  readonly oldObject?: JsonObject | null;
  /**
   * The operation's options as the handler decoded them (meta.k8s.io/v1 CreateOptions,
   * UpdateOptions, DeleteOptions; a connect request's options object). Absent: the empty options
   * of the operation, with `dryRun: ["All"]` for a dry run; `null` sends none.
   */
  readonly options?: JsonObject | null;
  /** The request uid; a fresh UUID when absent (upstream makes one per call). */
  readonly uid?: string;
}

/** One call's request: what to send, and what the answer is checked against. */
export interface AdmissionReviewCall {
  readonly uid: string;
  readonly version: AdmissionReviewVersion;
  /** The AdmissionReview request body. */
  readonly review: JsonObject;
}

/** The first review version of the webhook's list that nanokube can send, or upstream's error. */
export function selectAdmissionReviewVersion(versions: readonly string[]): AdmissionReviewVersion {
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  throw new Error('webhook does not accept known AdmissionReview versions (v1, v1beta1)');
}

const optionsKinds: Readonly<Record<string, string>> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
};

/**
 * The options sent: the caller's, else the operation's empty meta.k8s.io/v1 options (the request
 * handlers set that TypeMeta on what they decode); a dry run always says `dryRun: ["All"]`, the
 * only value the API accepts and what made the request a dry run.
 */
function optionsFor(a: AdmissionAttributes, given: JsonObject | null | undefined): JsonValue {
  if (given === null) return null;
  const kind = optionsKinds[a.operation];
  if (given === undefined && kind === undefined) return null;
  const options: JsonObject =
    given === undefined ? { kind: kind!, apiVersion: 'meta.k8s.io/v1' } : { ...given };
  if (a.dryRun) {
    const dryRun = options['dryRun'];
    if (!Array.isArray(dryRun) || dryRun.length === 0) options['dryRun'] = ['All'];
  }
  return options;
}

/** authenticationv1.UserInfo as Go marshals it: empty fields omitted. */
function userInfoOf(a: AdmissionAttributes): JsonObject {
  const u = a.user;
  const out: JsonObject = {};
  if (u.name !== '') out['username'] = u.name;
  if (u.uid !== '') out['uid'] = u.uid;
  if (u.groups.length > 0) out['groups'] = [...u.groups];
  const extra = Object.entries(u.extra);
  if (extra.length > 0) out['extra'] = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}

/**
 * CreateAdmissionObjects + CreateV1AdmissionReview / CreateV1beta1AdmissionReview: the review
 * body in the first version the webhook accepts (both versions have the same request fields).
 * Fields follow Go's declaration order and omitempty: `subResource`, `requestSubResource`, `name`
 * and `namespace` only when set; `object`, `oldObject` and `options` always (null when absent).
 * Throws upstream's error when the webhook accepts neither version.
 */
export function createAdmissionReview(input: AdmissionReviewInput): AdmissionReviewCall {
  const version = selectAdmissionReviewVersion(input.admissionReviewVersions);
  const uid = input.uid ?? randomUUID();
  const a = input.attributes;
  const m = input.matched;
  const r = input.request;
  const request: JsonObject = {
    uid,
    kind: { group: m.kind.group, version: m.kind.version, kind: m.kind.kind },
    resource: { group: m.resource.group, version: m.resource.version, resource: m.resource.resource },
  };
  if (m.subResource !== '') request['subResource'] = m.subResource;
  request['requestKind'] = { group: r.kind.group, version: r.kind.version, kind: r.kind.kind };
  request['requestResource'] = {
    group: r.resource.group,
    version: r.resource.version,
    resource: r.resource.resource,
  };
  if (r.subResource !== '') request['requestSubResource'] = r.subResource;
  if (a.name !== '') request['name'] = a.name;
  if (a.namespace !== '') request['namespace'] = a.namespace;
  request['operation'] = a.operation;
  request['userInfo'] = userInfoOf(a);
  const object = input.object !== undefined ? input.object : (a.object ?? null);
  const oldObject = input.oldObject !== undefined ? input.oldObject : (a.oldObject ?? null);
  request['object'] = object;
  request['oldObject'] = oldObject;
  request['dryRun'] = a.dryRun;
  request['options'] = optionsFor(a, input.options);
  return {
    uid,
    version,
    review: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request },
  };
}

// ---------------------------------------------------------------------------------------------
// Decoding the answer

/**
 * The answer as the REST client decodes it into the expected AdmissionReview: TypeMeta as the
 * webhook wrote it, and `response` (undefined when absent or null).
 */
export interface DecodedAdmissionReview {
  readonly version: AdmissionReviewVersion;
  readonly apiVersion: string;
  readonly kind: string;
  readonly response: DecodedAdmissionResponse | undefined;
}

export interface DecodedAdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  /** The patch bytes (base64 on the wire); empty when none. */
  readonly patch: Buffer;
  /** undefined when the webhook sent no patchType (Go's nil pointer). */
  readonly patchType: string | undefined;
  /** `status`: the metav1.Status a denial explains itself with. */
  readonly result: JsonObject | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The shape of Go types the answer is decoded into, for Go's type errors. */
type GoType =
  | { readonly t: 'string'; readonly name: string }
  | { readonly t: 'bool' }
  | { readonly t: 'int'; readonly name: 'int32' | 'int64' | 'uint8' }
  | { readonly t: 'bytes' }
  | {
      readonly t: 'struct';
      readonly name: string;
      readonly pkg: string;
      readonly fields: Readonly<Record<string, GoType>>;
    }
  | { readonly t: 'slice'; readonly name: string; readonly elem: GoType }
  | { readonly t: 'map'; readonly name: string; readonly elem: GoType };

const goString: GoType = { t: 'string', name: 'string' };
const goInt32: GoType = { t: 'int', name: 'int32' };

const statusCause: GoType = {
  t: 'struct',
  name: 'StatusCause',
  pkg: 'v1',
  fields: { reason: { t: 'string', name: 'v1.CauseType' }, message: goString, field: goString },
};

/** metav1.Status (TypeMeta inline, ListMeta, details and causes). */
const metaStatus: GoType = {
  t: 'struct',
  name: 'Status',
  pkg: 'v1',
  fields: {
    kind: goString,
    apiVersion: goString,
    metadata: {
      t: 'struct',
      name: 'ListMeta',
      pkg: 'v1',
      fields: {
        selfLink: goString,
        resourceVersion: goString,
        continue: goString,
        remainingItemCount: { t: 'int', name: 'int64' },
      },
    },
    status: goString,
    message: goString,
    reason: { t: 'string', name: 'v1.StatusReason' },
    details: {
      t: 'struct',
      name: 'StatusDetails',
      pkg: 'v1',
      fields: {
        name: goString,
        group: goString,
        kind: goString,
        uid: { t: 'string', name: 'types.UID' },
        causes: { t: 'slice', name: '[]v1.StatusCause', elem: statusCause },
        retryAfterSeconds: goInt32,
      },
    },
    code: goInt32,
  },
};

function admissionReviewType(version: AdmissionReviewVersion): GoType {
  return {
    t: 'struct',
    name: 'AdmissionReview',
    pkg: version,
    fields: {
      kind: goString,
      apiVersion: goString,
      // The request is not read back; only its type is checked.
      request: { t: 'struct', name: 'AdmissionRequest', pkg: version, fields: {} },
      response: {
        t: 'struct',
        name: 'AdmissionResponse',
        pkg: version,
        fields: {
          uid: { t: 'string', name: 'types.UID' },
          allowed: { t: 'bool' },
          status: metaStatus,
          patch: { t: 'bytes' },
          patchType: { t: 'string', name: `${version}.PatchType` },
          auditAnnotations: { t: 'map', name: 'map[string]string', elem: goString },
          warnings: { t: 'slice', name: '[]string', elem: goString },
        },
      },
    },
  };
}

/** The JSON kind of a value in Go's UnmarshalTypeError wording. */
function goJsonKind(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

function goTypeName(t: GoType): string {
  switch (t.t) {
    case 'string':
    case 'slice':
    case 'map':
      return t.name;
    case 'bool':
      return 'bool';
    case 'int':
      return t.name;
    case 'bytes':
      return '[]uint8';
    case 'struct':
      return `${t.pkg}.${t.name}`;
  }
}

interface ErrorContext {
  /** The innermost struct whose field is being decoded (Go's errorContext.Struct). */
  readonly struct: string;
  /** Field names from the root (Go's errorContext.FieldStack). */
  readonly path: readonly string[];
}

function unmarshalTypeError(value: string, t: GoType, ctx: ErrorContext): Error {
  if (ctx.struct !== '' || ctx.path.length > 0) {
    return new Error(
      `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.path.join('.')} of type ${goTypeName(t)}`,
    );
  }
  return new Error(`json: cannot unmarshal ${value} into Go value of type ${goTypeName(t)}`);
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Map = new Int16Array(256).fill(-1);
for (let i = 0; i < base64Alphabet.length; i++) base64Map[base64Alphabet.charCodeAt(i)] = i;

/**
 * Go's base64.StdEncoding.Decode (what encoding/json does for []byte): padding required, CR and
 * LF skipped, `illegal base64 data at input byte N` at the byte Go reports.
 */
export function goBase64Decode(text: string): Buffer {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  const corrupt = (at: number): Error => new Error(`illegal base64 data at input byte ${at}`);
  const newline = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;
  let si = 0;
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        // StdEncoding pads, so a quantum cut short is corrupt where it started.
        throw corrupt(si - j);
      }
      const c = src[si]!;
      si++;
      const v = base64Map[c]!;
      if (v !== -1) {
        dbuf[j] = v;
        continue;
      }
      if (newline(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d) throw corrupt(si - 1);
      // Padding: only after two or three symbols.
      if (j === 0 || j === 1) throw corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && newline(src[si])) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 0x3d) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && newline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out.push(bytes[k]!);
    if (trailing !== undefined) throw corrupt(trailing);
    if (dlen < 4) return Buffer.from(out);
  }
}

/**
 * Checks `value` against a Go type as encoding/json would decode it (case-sensitive field names,
 * unknown fields ignored, null leaving the zero value) and returns the first error Go reports.
 */
function goUnmarshalError(value: JsonValue, t: GoType, ctx: ErrorContext): Error | undefined {
  if (value === null) return undefined;
  switch (t.t) {
    case 'string':
      return typeof value === 'string' ? undefined : unmarshalTypeError(goJsonKind(value), t, ctx);
    case 'bool':
      return typeof value === 'boolean' ? undefined : unmarshalTypeError(goJsonKind(value), t, ctx);
    case 'int': {
      if (typeof value !== 'number') return unmarshalTypeError(goJsonKind(value), t, ctx);
      const [min, max] = t.name === 'int32' ? [-(2 ** 31), 2 ** 31] : [-(2 ** 63), 2 ** 63];
      if (!Number.isInteger(value) || value < min || value >= max) {
        return unmarshalTypeError(`number ${JSON.stringify(value)}`, t, ctx);
      }
      return undefined;
    }
    case 'bytes':
      // A string is base64; Go also decodes an array of numbers into []byte, element by element.
      if (Array.isArray(value)) {
        for (const v of value) {
          if (v === null) continue;
          const byte: GoType = { t: 'int', name: 'uint8' };
          if (typeof v !== 'number') return unmarshalTypeError(goJsonKind(v), byte, ctx);
          if (!Number.isInteger(v) || v < 0 || v > 255) {
            return unmarshalTypeError(`number ${JSON.stringify(v)}`, byte, ctx);
          }
        }
        return undefined;
      }
      if (typeof value !== 'string') return unmarshalTypeError(goJsonKind(value), t, ctx);
      try {
        goBase64Decode(value);
        return undefined;
      } catch (err) {
        return err as Error;
      }
    case 'struct': {
      if (!isJsonObject(value)) return unmarshalTypeError(goJsonKind(value), t, ctx);
      for (const [k, v] of Object.entries(value)) {
        const field = t.fields[k];
        if (field === undefined) continue;
        const err = goUnmarshalError(v, field, { struct: t.name, path: [...ctx.path, k] });
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'slice': {
      if (!Array.isArray(value)) return unmarshalTypeError(goJsonKind(value), t, ctx);
      for (const v of value) {
        const err = goUnmarshalError(v, t.elem, ctx);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'map': {
      if (!isJsonObject(value)) return unmarshalTypeError(goJsonKind(value), t, ctx);
      for (const v of Object.values(value)) {
        const err = goUnmarshalError(v, t.elem, ctx);
        if (err !== undefined) return err;
      }
      return undefined;
    }
  }
}

/** response.patch as Go decodes a []byte: base64 text, or an array of byte values. */
function patchBytes(v: JsonValue | undefined): Buffer {
  if (typeof v === 'string') return goBase64Decode(v);
  if (Array.isArray(v)) return Buffer.from(v.map((b) => (typeof b === 'number' ? b : 0)));
  return Buffer.alloc(0);
}

/** The anonymous struct SimpleMetaFactory.Interpret reads apiVersion and kind into. */
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** Where the webhook client's scheme was made (upstream's NewScheme call site names it). */
const webhookSchemeName = 'pkg/util/webhook/client.go:69';

/** The Go types the webhook client's scheme knows, by group/version and kind. */
function registeredGoType(group: string, version: string, kind: string): string | undefined {
  if (group === 'admission.k8s.io' && (version === 'v1' || version === 'v1beta1')) {
    if (kind === 'AdmissionReview') return `${version}.AdmissionReview`;
    // metav1.AddToGroupVersion adds these to every group version it registers.
    const meta = [
      'WatchEvent',
      'ListOptions',
      'GetOptions',
      'DeleteOptions',
      'CreateOptions',
      'UpdateOptions',
    ];
    if ([...meta, 'PatchOptions'].includes(kind)) return `v1.${kind}`;
  }
  if (group === '' && version === 'v1') {
    const unversioned = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];
    if (unversioned.includes(kind)) return `v1.${kind}`;
  }
  return undefined;
}

function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * Decodes the webhook's JSON answer into the AdmissionReview of `version` as upstream's webhook
 * client does (json serializer + versioning codec into a typed object): apiVersion and kind
 * default to the expected ones when missing, a foreign kind fails as Go fails, then Go's type
 * errors. Throws; upstream reports these as `failed to call webhook: <error>`.
 */
export function decodeAdmissionReview(
  version: AdmissionReviewVersion,
  body: unknown,
): DecodedAdmissionReview {
  if (body !== null && !isJsonObject(body)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(body)} into Go value of type ${findKindType}`,
    );
  }
  const doc: JsonObject = body ?? {};
  for (const field of ['apiVersion', 'kind']) {
    const v = doc[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new Error(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(v)} into Go struct field .${field} of type string`,
      );
    }
  }
  const apiVersion = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
  const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
  // schema.ParseGroupVersion
  let group = '';
  let ver = '';
  if (apiVersion !== '' && apiVersion !== '/') {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
    if (slashes === 0) ver = apiVersion;
    else [group, ver] = apiVersion.split('/') as [string, string];
  }
  // gvkWithDefaults against the type decoded into.
  const actualKind = kind === '' ? 'AdmissionReview' : kind;
  if (ver === '' && group === '') {
    group = 'admission.k8s.io';
    ver = version;
  }
  if (ver === '' && group === 'admission.k8s.io') ver = version;
  if (ver === '') throw new Error(`Object 'apiVersion' is missing in '${JSON.stringify(body)}'`);
  if (group !== 'admission.k8s.io' || ver !== version || actualKind !== 'AdmissionReview') {
    const other = registeredGoType(group, ver, actualKind);
    if (other === undefined) {
      throw new Error(
        `no kind "${actualKind}" is registered for version "${groupVersionString(group, ver)}" in scheme "${webhookSchemeName}"`,
      );
    }
    throw new Error(`converting (${other}) to (${version}.AdmissionReview): unknown conversion`);
  }
  const err = goUnmarshalError(doc, admissionReviewType(version), { struct: '', path: [] });
  if (err !== undefined) throw err;
  const r = doc['response'];
  if (!isJsonObject(r)) return { version, apiVersion, kind, response: undefined };
  const str = (k: string): string => {
    const v = r[k];
    return typeof v === 'string' ? v : '';
  };
  const annotations = isJsonObject(r['auditAnnotations']) ? r['auditAnnotations'] : {};
  const auditAnnotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) auditAnnotations[k] = typeof v === 'string' ? v : '';
  const warnings = Array.isArray(r['warnings'])
    ? r['warnings'].map((w) => (typeof w === 'string' ? w : ''))
    : [];
  return {
    version,
    apiVersion,
    kind,
    response: {
      uid: str('uid'),
      allowed: r['allowed'] === true,
      patch: patchBytes(r['patch']),
      patchType: typeof r['patchType'] === 'string' ? r['patchType'] : undefined,
      result: isJsonObject(r['status']) ? r['status'] : undefined,
      warnings,
      auditAnnotations,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Verifying it

/** What a verified answer says (upstream's request.AdmissionResponse). */
export interface AdmissionResponse {
  readonly allowed: boolean;
  /** The patch to apply (mutating webhooks only); undefined when there is none. */
  readonly patch: Buffer | undefined;
  /** `JSONPatch`, or another type the mutating dispatcher then refuses; '' without a patch. */
  readonly patchType: string;
  /** The Status a denial explains itself with. */
  readonly result: JsonObject | undefined;
  readonly warnings: readonly string[];
  /** Keyed as the webhook wrote them; the dispatchers prefix them with the webhook's name. */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** GroupVersionKind.String(): `admission.k8s.io/v1, Kind=AdmissionReview`. */
function gvkString(apiVersion: string, kind: string): string {
  // schema.FromAPIVersionAndKind: an unparsable apiVersion keeps only the kind.
  let gv = '/';
  if (apiVersion !== '' && apiVersion !== '/') {
    const parts = apiVersion.split('/');
    if (parts.length === 1) gv = `/${apiVersion}`;
    else if (parts.length === 2) gv = apiVersion;
  }
  return `${gv}, Kind=${kind}`;
}

/**
 * VerifyAdmissionResponse: for v1, the response must be present, carry the request's uid and
 * come as `admission.k8s.io/v1, Kind=AdmissionReview`; a mutating webhook sends patch and
 * patchType together (the type not empty), a validating one neither. v1beta1 answers are taken
 * as upstream takes them (no uid or kind check; a patch is a JSONPatch). Throws upstream's error.
 */
export function verifyAdmissionResponse(
  uid: string,
  mutating: boolean,
  decoded: DecodedAdmissionReview,
): AdmissionResponse {
  const r = decoded.response;
  if (r === undefined) throw new Error('webhook response was absent');
  if (decoded.version === 'v1beta1') {
    const patch = mutating && r.patch.length > 0 ? r.patch : undefined;
    return {
      allowed: r.allowed,
      patch,
      patchType: patch !== undefined ? 'JSONPatch' : '',
      result: r.result,
      warnings: r.warnings,
      auditAnnotations: r.auditAnnotations,
    };
  }
  if (r.uid !== uid)
    throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid)}`);
  if (decoded.apiVersion !== 'admission.k8s.io/v1' || decoded.kind !== 'AdmissionReview') {
    throw new Error(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(decoded.apiVersion, decoded.kind)}`,
    );
  }
  let patch: Buffer | undefined;
  let patchType = '';
  if (mutating) {
    if (r.patch.length > 0 && r.patchType === undefined) {
      throw new Error('webhook returned response.patch but not response.patchType');
    }
    if (r.patch.length === 0 && r.patchType !== undefined) {
      throw new Error('webhook returned response.patchType but not response.patch');
    }
    patch = r.patch.length > 0 ? r.patch : undefined;
    if (r.patchType !== undefined) {
      patchType = r.patchType;
      if (patchType === '') throw new Error('webhook returned invalid response.patchType of ""');
    }
  } else {
    if (r.patch.length > 0) throw new Error('validating webhook may not return response.patch');
    if (r.patchType !== undefined) throw new Error('validating webhook may not return response.patchType');
  }
  return {
    allowed: r.allowed,
    patch,
    patchType,
    result: r.result,
    warnings: r.warnings,
    auditAnnotations: r.auditAnnotations,
  };
}

// ---------------------------------------------------------------------------------------------
// Errors as the dispatchers return them

/**
 * Upstream's ErrCallingWebhook: the webhook could not be called or answered unusably (as opposed
 * to a denial). `status` is what a fail-closed dispatcher's caller sees inside; the dispatchers
 * return `Internal error occurred: <message>` (apiErrors.internal) when the failure policy is Fail.
 */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  readonly webhookName: string;
  /** The reason after `failed calling webhook "<name>": `; undefined when there is none. */
  readonly reason: string | undefined;
  readonly status: StatusError;

  constructor(webhookName: string, reason: string | undefined, status: StatusError) {
    super(
      reason !== undefined
        ? `failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`
        : `failed calling webhook ${JSON.stringify(webhookName)}; no further details available`,
    );
    this.webhookName = webhookName;
    this.reason = reason;
    this.status = status;
  }
}

/**
 * Where a call failed, for upstream's wording of it:
 * - `create`: createAdmissionReview threw (`could not create admission objects: …`, 400);
 * - `call`: the transport threw (`failed to call webhook: …`; a StatusError from a non-2xx answer
 *   is kept as the status, anything else is 400 `error calling webhook`; a transport error whose
 *   `phase` is `client` — a bad URL or caBundle — is `could not get REST client: …`, 400);
 * - `decode`: decodeAdmissionReview threw (a decoding error of the REST client: as `call`);
 * - `verify`: verifyAdmissionResponse threw (`received invalid webhook response: …`, 503).
 */
export type WebhookCallStage = 'create' | 'call' | 'decode' | 'verify';

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function webhookCallError(
  webhookName: string,
  stage: WebhookCallStage,
  err: unknown,
): WebhookCallError {
  const msg = messageOf(err);
  switch (stage) {
    case 'create':
      return new WebhookCallError(
        webhookName,
        `could not create admission objects: ${msg}`,
        apiErrors.badRequest('error creating admission objects'),
      );
    case 'verify':
      return new WebhookCallError(
        webhookName,
        `received invalid webhook response: ${msg}`,
        apiErrors.serviceUnavailable('error validating webhook response'),
      );
    case 'call':
    case 'decode': {
      if (typeof err === 'object' && err !== null && (err as { phase?: unknown }).phase === 'client') {
        return new WebhookCallError(
          webhookName,
          `could not get REST client: ${msg}`,
          apiErrors.badRequest('error getting REST client'),
        );
      }
      const status = err instanceof StatusError ? err : apiErrors.badRequest('error calling webhook');
      return new WebhookCallError(webhookName, `failed to call webhook: ${msg}`, status);
    }
  }
}

/**
 * decodeAdmissionReview + verifyAdmissionResponse for one call's answer, failures wrapped as the
 * dispatchers wrap them (see WebhookCallStage). Throws WebhookCallError.
 */
export function readAdmissionResponse(
  webhookName: string,
  call: AdmissionReviewCall,
  mutating: boolean,
  body: unknown,
): AdmissionResponse {
  let decoded: DecodedAdmissionReview;
  try {
    decoded = decodeAdmissionReview(call.version, body);
  } catch (err) {
    throw webhookCallError(webhookName, 'decode', err);
  }
  try {
    return verifyAdmissionResponse(call.uid, mutating, decoded);
  } catch (err) {
    throw webhookCallError(webhookName, 'verify', err);
  }
}

/**
 * ToStatusErr: the error a webhook's denial becomes. The webhook's Status is kept (code at least
 * 400, status Failure) and its message prefixed with `admission webhook "<name>" denied the
 * request` (then `: <message>`, else `: <reason>`, else ` without explanation`).
 */
export function webhookDenial(webhookName: string, result: JsonObject | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const r = result ?? {};
  const code = typeof r['code'] === 'number' && r['code'] >= 400 ? r['code'] : 400;
  const message = typeof r['message'] === 'string' ? r['message'] : '';
  const reason = typeof r['reason'] === 'string' ? r['reason'] : '';
  let text: string;
  if (message !== '') text = `${deniedBy}: ${message}`;
  else if (reason !== '') text = `${deniedBy}: ${reason}`;
  else text = `${deniedBy} without explanation`;
  const details = isJsonObject(r['details']) ? (r['details'] as StatusDetails) : undefined;
  // The webhook's reason is kept verbatim, even one outside the usual vocabulary.
  return new StatusError(code, reason as StatusReason, text, details);
}

/** NewDryRunUnsupportedErr: a dry run reaching a webhook that may have side effects. */
export function dryRunUnsupportedError(webhookName: string): StatusError {
  return apiErrors.badRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}
