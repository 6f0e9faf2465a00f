/**
 * Service-account issuer discovery (upstream pkg/serviceaccount/openidmetadata.go, v1.27): the
 * OpenID provider configuration at `/.well-known/openid-configuration` and the verification keys
 * as a JWK set at `/openid/v1/jwks`, both served with `Cache-Control: public, max-age=3600`.
 */
import type { VerificationKey } from './keys.js';

export const openIDConfigPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';
export const discoveryCacheControl = 'public, max-age=3600';
export const jwksContentType = 'application/jwk-set+json';

export class OpenIDMetadataError extends Error {
  override readonly name = 'OpenIDMetadataError';
}

export interface OpenIDMetadata {
  /** The configuration document (Go's json.Marshal output). */
  readonly configuration: string;
  readonly jwks: string;
}

/** A key as go-jose's JSONWebKey marshals it (use, kty, kid, crv, alg, x, y / n, e). */
function jwk(k: VerificationKey): Record<string, string> {
  const exported = k.key.export({ format: 'jwk' });
  const out: Record<string, string> = { use: 'sig', kty: String(exported.kty), kid: k.kid };
  if (exported.kty === 'EC') {
    out['crv'] = String(exported.crv);
    out['alg'] = k.alg;
    out['x'] = String(exported.x);
    out['y'] = String(exported.y);
  } else {
    out['alg'] = k.alg;
    out['n'] = String(exported.n);
    out['e'] = String(exported.e);
  }
  return out;
}

/**
 * upstream NewOpenIDMetadata: the issuer must be an https URL without query or fragment;
 * jwks_uri is `--service-account-jwks-uri` or https://<external address>/openid/v1/jwks.
 */
export function openIDMetadata(o: {
  readonly issuer: string;
  readonly jwksURI?: string;
  readonly externalAddress: string;
  readonly keys: readonly VerificationKey[];
}): OpenIDMetadata {
  if (o.issuer === '') throw new OpenIDMetadataError('empty issuer URL');
  if (o.keys.length === 0) throw new OpenIDMetadataError('no keys provided for validating keyset');
  let iss: URL;
  try {
    iss = new URL(o.issuer);
  } catch {
    throw new OpenIDMetadataError(`could not parse issuer URL: ${o.issuer}`);
  }
  if (iss.protocol !== 'https:')
    throw new OpenIDMetadataError(`issuer URL must use https scheme, got: ${o.issuer}`);
  if (iss.search !== '')
    throw new OpenIDMetadataError(`issuer URL may not include a query, got: ${o.issuer}`);
  if (iss.hash !== '')
    throw new OpenIDMetadataError(`issuer URL may not include a fragment, got: ${o.issuer}`);
  let jwksURI = o.jwksURI ?? '';
  if (jwksURI === '') jwksURI = `https://${o.externalAddress}${jwksPath}`;
  const algs = [...new Set(o.keys.map((k) => k.alg))].sort();
  const configuration = JSON.stringify({
    issuer: o.issuer,
    jwks_uri: jwksURI,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  });
  return { configuration, jwks: JSON.stringify({ keys: o.keys.map(jwk) }) };
}
