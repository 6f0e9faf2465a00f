/**
 * The claims of service-account tokens (upstream pkg/serviceaccount/claims.go and legacy.go,
 * v1.27). Bound tokens (TokenRequest): iss, sub, aud, exp, iat, nbf and the private
 * `kubernetes.io` claim naming the namespace, the service account and the pod or secret the token
 * is bound to (and `warnafter` for the extended pod tokens). Legacy tokens (Secrets of type
 * kubernetes.io/service-account-token): iss `kubernetes/serviceaccount` and four flat private
 * claims, no expiry, no audience.
 */
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';

export const legacyIssuer = 'kubernetes/serviceaccount';

/** upstream apiserverserviceaccount.MakeUsername */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * upstream SplitUsername: undefined unless `system:serviceaccount:NS:NAME` with a valid namespace
 * name (a DNS label) and a valid service-account name (a DNS subdomain).
 */
export function splitServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const [namespace, name, ...rest] = username.slice(prefix.length).split(':');
  if (namespace === undefined || name === undefined || rest.length > 0) return undefined;
  if (nameIsDNSLabel(namespace, false).length > 0 || nameIsDNSSubdomain(name, false).length > 0) {
    return undefined;
  }
  return { namespace, name };
}

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface BoundClaimsInput {
  readonly issuer: string;
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly audiences: readonly string[];
  /** Seconds the token lives (exp = now + this). */
  readonly expirationSeconds: number;
  /** Seconds after which use is only warned about (0: none). */
  readonly warnAfterSeconds: number;
  /** Unix seconds. */
  readonly now: number;
}

/** Go's `ref` with omitempty fields. */
function refJson(r: ObjectRef): JsonObject {
  const out: JsonObject = {};
  if (r.name !== '') out['name'] = r.name;
  if (r.uid !== '') out['uid'] = r.uid;
  return out;
}

/** upstream token.Claims: the payload, keys in the order go-jose writes them (sorted). */
export function boundClaims(i: BoundClaimsInput): JsonObject {
  const k8s: JsonObject = {};
  if (i.namespace !== '') k8s['namespace'] = i.namespace;
  if (i.pod !== undefined) k8s['pod'] = refJson(i.pod);
  if (i.secret !== undefined) k8s['secret'] = refJson(i.secret);
  k8s['serviceaccount'] = refJson(i.serviceAccount);
  if (i.warnAfterSeconds !== 0) k8s['warnafter'] = i.now + i.warnAfterSeconds;
  const out: JsonObject = {};
  if (i.audiences.length > 0) out['aud'] = [...i.audiences];
  out['exp'] = i.now + i.expirationSeconds;
  out['iat'] = i.now;
  out['iss'] = i.issuer;
  out['kubernetes.io'] = k8s;
  out['nbf'] = i.now;
  out['sub'] = serviceAccountUsername(i.namespace, i.serviceAccount.name);
  return out;
}

export interface LegacyClaimsInput {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly secretName: string;
}

/** upstream LegacyClaims (with the legacy issuer the token generator adds). */
export function legacyClaims(i: LegacyClaimsInput): JsonObject {
  return {
    iss: legacyIssuer,
    'kubernetes.io/serviceaccount/namespace': i.namespace,
    'kubernetes.io/serviceaccount/secret.name': i.secretName,
    'kubernetes.io/serviceaccount/service-account.name': i.serviceAccount.name,
    'kubernetes.io/serviceaccount/service-account.uid': i.serviceAccount.uid,
    sub: serviceAccountUsername(i.namespace, i.serviceAccount.name),
  };
}

/** The registered claims as go-jose's jwt.Claims reads them (aud: a string or a list). */
export interface PublicClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
}

export class ClaimsError extends Error {
  override readonly name = 'ClaimsError';
}

function numericDate(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ClaimsError('square/go-jose/jwt: expected number');
  return Math.trunc(v);
}

function stringClaim(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ClaimsError('json: cannot unmarshal into Go value of type string');
  return v;
}

/** Reads the registered claims of a verified payload. */
export function publicClaimsOf(payload: JsonObject): PublicClaims {
  const audRaw = payload['aud'];
  let aud: string[] = [];
  if (typeof audRaw === 'string') aud = [audRaw];
  else if (Array.isArray(audRaw)) {
    aud = audRaw.map((a) => {
      if (typeof a !== 'string')
        throw new ClaimsError('square/go-jose/jwt: expected string or array value to unmarshal to Audience');
      return a;
    });
  } else if (audRaw !== undefined && audRaw !== null) {
    throw new ClaimsError('square/go-jose/jwt: expected string or array value to unmarshal to Audience');
  }
  const exp = numericDate(payload['exp']);
  const nbf = numericDate(payload['nbf']);
  const iat = numericDate(payload['iat']);
  return {
    iss: stringClaim(payload['iss']),
    sub: stringClaim(payload['sub']),
    aud,
    ...(exp !== undefined ? { exp } : {}),
    ...(nbf !== undefined ? { nbf } : {}),
    ...(iat !== undefined ? { iat } : {}),
  };
}

function refOf(v: unknown): ObjectRef | undefined {
  if (!isJsonObject(v)) return undefined;
  return { name: stringClaim(v['name']), uid: stringClaim(v['uid']) };
}

export interface BoundPrivateClaims {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly warnAfter?: number;
}

export function boundPrivateClaimsOf(payload: JsonObject): BoundPrivateClaims {
  const k = isJsonObject(payload['kubernetes.io']) ? payload['kubernetes.io'] : {};
  const pod = refOf(k['pod']);
  const secret = refOf(k['secret']);
  const warnAfter = numericDate(k['warnafter']);
  return {
    namespace: stringClaim(k['namespace']),
    serviceAccount: refOf(k['serviceaccount']) ?? { name: '', uid: '' },
    ...(pod !== undefined ? { pod } : {}),
    ...(secret !== undefined ? { secret } : {}),
    ...(warnAfter !== undefined ? { warnAfter } : {}),
  };
}

export interface LegacyPrivateClaims {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
}

export function legacyPrivateClaimsOf(payload: JsonObject): LegacyPrivateClaims {
  return {
    namespace: stringClaim(payload['kubernetes.io/serviceaccount/namespace']),
    secretName: stringClaim(payload['kubernetes.io/serviceaccount/secret.name']),
    serviceAccountName: stringClaim(payload['kubernetes.io/serviceaccount/service-account.name']),
    serviceAccountUID: stringClaim(payload['kubernetes.io/serviceaccount/service-account.uid']),
  };
}
