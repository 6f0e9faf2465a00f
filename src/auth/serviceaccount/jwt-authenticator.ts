/**
 * Service-account JWTs (upstream pkg/serviceaccount/jwt.go, v1.27): a token whose unverified
 * `iss` is one of this authenticator's issuers is ours; its signature must verify with one of the
 * known keys, its audiences must meet the requested ones (tokens without audiences, the legacy
 * ones, count as meant for the API audiences), and then the validator checks the claims against
 * the cluster's current state.
 */
import { compactVerify, decodeProtectedHeader } from 'jose';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';
import type { UserInfo } from '../../machinery/user.js';
import type { TokenAuthenticator, TokenResult } from '../token-authenticator.js';
import { ClaimsError, publicClaimsOf } from './claims.js';
import type { PublicClaims } from './claims.js';
import type { VerificationKey } from './keys.js';

/** What a validated token stands for (upstream ServiceAccountInfo). */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUID?: string;
}

export const podNameExtra = 'authentication.kubernetes.io/pod-name';
export const podUIDExtra = 'authentication.kubernetes.io/pod-uid';

/** upstream ServiceAccountInfo.UserInfo(). */
export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, readonly string[]> = {};
  if ((sa.podName ?? '') !== '' && (sa.podUID ?? '') !== '') {
    extra[podNameExtra] = [sa.podName!];
    extra[podUIDExtra] = [sa.podUID!];
  }
  return {
    name: `system:serviceaccount:${sa.namespace}:${sa.name}`,
    uid: sa.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`],
    extra,
  };
}

/** A validator's refusal; its message is the authentication error. */
export class TokenValidationError extends Error {
  override readonly name = 'TokenValidationError';
}

export interface TokenValidator {
  validate(input: {
    readonly token: string;
    readonly claims: PublicClaims;
    readonly payload: JsonObject;
  }): Promise<{
    readonly info: ServiceAccountInfo;
    readonly warnings: readonly string[];
    readonly auditAnnotations?: Readonly<Record<string, string>>;
  }>;
}

export interface JwtAuthenticatorOptions {
  readonly issuers: readonly string[];
  /** The keys tokens may be signed with (read on every call, so they can be reloaded). */
  readonly keys: () => readonly VerificationKey[];
  /** `--api-audiences`: what tokens without audiences are taken to be for. */
  readonly implicitAudiences: readonly string[];
  readonly validator: TokenValidator;
}

/**
 * Go's base64.RawURLEncoding.DecodeString accepts the text: the URL alphabet without padding
 * (line breaks are skipped), and no length that leaves a lone character.
 */
function isRawUrlBase64(text: string): boolean {
  const s = text.replace(/[\r\n]/g, '');
  return /^[A-Za-z0-9_-]*$/.test(s) && s.length % 4 !== 1;
}

/**
 * upstream hasCorrectIssuer (the unverified payload's `iss`), for a token go-jose's ParseSigned
 * reads: three parts, each raw URL-safe base64. Anything else is no token of ours.
 */
function unverifiedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every(isRawUrlBase64)) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return isJsonObject(payload) && typeof payload['iss'] === 'string' ? payload['iss'] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * go-jose v2's DetachedVerify reports every failed verification this way, a signature algorithm
 * the key cannot verify (`none`, an RSA algorithm on an EC key) included.
 */
const cryptoFailure = 'square/go-jose: error in cryptographic primitive';

/** Go's %q of a string list: ["a" "b"]. */
function quotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

export function jwtAuthenticator(o: JwtAuthenticatorOptions): TokenAuthenticator {
  const issuers = new Set(o.issuers);
  return {
    async authenticateToken(token, requested): Promise<TokenResult> {
      const iss = unverifiedIssuer(token);
      if (iss === undefined || !issuers.has(iss)) return { kind: 'none' };
      let alg: string;
      try {
        const header: Record<string, unknown> = decodeProtectedHeader(token);
        // go-jose's header sanitizing refuses an `alg` or `kid` that is not a string.
        const { alg: a, kid } = header;
        if ((a !== undefined && typeof a !== 'string') || (kid !== undefined && typeof kid !== 'string')) {
          return { kind: 'none' };
        }
        alg = a ?? '';
      } catch {
        return { kind: 'none' };
      }
      let payloadBytes: Uint8Array | undefined;
      const errors: string[] = [];
      for (const key of o.keys()) {
        if (key.alg !== alg) {
          errors.push(cryptoFailure);
          continue;
        }
        try {
          payloadBytes = (await compactVerify(token, key.key, { algorithms: [key.alg] })).payload;
          break;
        } catch {
          errors.push(cryptoFailure);
        }
      }
      if (payloadBytes === undefined)
        return { kind: 'failed', reasons: errors.length > 0 ? errors : [cryptoFailure] };
      let payload: JsonObject;
      let claims: PublicClaims;
      try {
        const parsed: unknown = JSON.parse(new TextDecoder().decode(payloadBytes));
        if (!isJsonObject(parsed))
          throw new ClaimsError('json: cannot unmarshal into Go value of type jwt.Claims');
        payload = parsed;
        claims = publicClaimsOf(payload);
      } catch (err) {
        return { kind: 'failed', reasons: [err instanceof Error ? err.message : String(err)] };
      }
      // Legacy tokens have no audience: they are for the API server only (and audited as such).
      const tokenAudiences = claims.aud.length === 0 ? o.implicitAudiences : claims.aud;
      const annotations: Record<string, string> =
        claims.aud.length === 0 ? { 'authentication.k8s.io/legacy-token': claims.sub } : {};
      const wanted = requested.length > 0 ? requested : o.implicitAudiences;
      const audiences = wanted.filter((a) => tokenAudiences.includes(a));
      if (audiences.length === 0 && o.implicitAudiences.length > 0) {
        return {
          kind: 'failed',
          reasons: [
            `token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(wanted)}`,
          ],
        };
      }
      try {
        const { info, warnings, auditAnnotations } = await o.validator.validate({ token, claims, payload });
        Object.assign(annotations, auditAnnotations ?? {});
        return {
          kind: 'authenticated',
          user: serviceAccountUser(info),
          audiences,
          ...(warnings.length > 0 ? { warnings } : {}),
          ...(Object.keys(annotations).length > 0 ? { auditAnnotations: annotations } : {}),
        };
      } catch (err) {
        if (err instanceof TokenValidationError || err instanceof ClaimsError) {
          return { kind: 'failed', reasons: [err.message] };
        }
        throw err;
      }
    },
  };
}
