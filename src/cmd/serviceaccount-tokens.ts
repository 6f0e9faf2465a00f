/**
 * Service-account token wiring shared by `nanokube serve` and `nanokube controller-manager`: the
 * signing key (the data dir's, or `--service-account-signing-key-file`), the verification keys
 * (plus every `--service-account-key-file`), the bound-token issuer for TokenRequest, the two JWT
 * authenticators (bound and legacy) over getters that read storage on every call, issuer
 * discovery documents, and the legacy token generator the tokens controller signs with.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { boundClaims, legacyClaims } from '../auth/serviceaccount/claims.js';
import { boundTokenValidator } from '../auth/serviceaccount/bound-validator.js';
import type { SecretLabeler, ServiceAccountTokenGetter } from '../auth/serviceaccount/getters.js';
import { jwtAuthenticator } from '../auth/serviceaccount/jwt-authenticator.js';
import { signingKeyFromPem, verificationKeysFromPem } from '../auth/serviceaccount/keys.js';
import type { SigningKey, VerificationKey } from '../auth/serviceaccount/keys.js';
import { legacyTokenValidator } from '../auth/serviceaccount/legacy-validator.js';
import {
  discoveryCacheControl,
  jwksContentType,
  jwksPath,
  openIDConfigPath,
  openIDMetadata,
} from '../auth/serviceaccount/openid-metadata.js';
import { jwtTokenGenerator } from '../auth/serviceaccount/token-generator.js';
import type { TokenAuthenticator } from '../auth/token-authenticator.js';
import type { NonResourceDocument } from '../apiserver/server.js';
import { legacyIssuer } from '../auth/serviceaccount/claims.js';
import type { BoundTokenIssuer } from '../registry/resources/core/serviceaccount-token.js';
import type { JsonObject } from '../util/json.js';
import { isJsonObject } from '../util/json.js';

export const defaultServiceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';
/** The data dir's signing key (PKCS#8 PEM, ECDSA P-256), made on first start. */
export const serviceAccountKeyFile = 'sa.key';

/** Creates `<pkiDir>/sa.key` when missing; returns its path. */
export function ensureServiceAccountKey(pkiDir: string): string {
  const path = join(pkiDir, serviceAccountKeyFile);
  if (!existsSync(path)) {
    // The PKI's certificates are made concurrently: the directory may not exist yet.
    mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    try {
      writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another start made it first: use theirs.
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) throw err;
    }
  }
  return path;
}

function metaString(o: JsonObject, key: string): string {
  const m = o['metadata'];
  const v = isJsonObject(m) ? m[key] : undefined;
  return typeof v === 'string' ? v : '';
}

/** The tokens controller's generator: legacy claims signed with the private key (PEM). */
export function legacyTokenGenerator(
  privateKeyPem: string,
): (sa: JsonObject, secret: JsonObject) => Promise<string> {
  const generator = jwtTokenGenerator(signingKeyFromPem(privateKeyPem, '--service-account-private-key-file'));
  return (sa, secret) =>
    generator.generate(
      legacyClaims({
        namespace: metaString(secret, 'namespace'),
        serviceAccount: { name: metaString(sa, 'name'), uid: metaString(sa, 'uid') },
        secretName: metaString(secret, 'name'),
      }),
    );
}

export interface ServiceAccountTokenFlags {
  /** `--service-account-issuer` (repeatable; the first issues). */
  readonly issuers?: readonly string[];
  /** `--api-audiences` (default: the issuers). */
  readonly apiAudiences?: readonly string[];
  /** `--service-account-signing-key-file`. */
  readonly signingKeyFile?: string;
  /** `--service-account-key-file` (repeatable). */
  readonly keyFiles?: readonly string[];
  /** `--service-account-max-token-expiration` in seconds (0: none). */
  readonly maxTokenExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  readonly extendTokenExpiration?: boolean;
  /** `--service-account-jwks-uri`. */
  readonly jwksURI?: string;
}

export interface ServiceAccountTokens {
  readonly issuer: BoundTokenIssuer;
  readonly apiAudiences: readonly string[];
  /** The legacy and the bound authenticator, in kube-apiserver's order. */
  readonly authenticators: readonly TokenAuthenticator[];
  /** The discovery documents; [] when the issuer is not an https URL (upstream then serves none). */
  documents(externalAddress: () => string): NonResourceDocument[];
  /** The signing key's PEM, for the in-process tokens controller. */
  readonly signingKeyPem: string;
}

export function serviceAccountTokens(o: {
  readonly flags: ServiceAccountTokenFlags;
  readonly pkiDir: string;
  readonly getter: ServiceAccountTokenGetter;
  readonly labelSecret: SecretLabeler;
  /** LegacyServiceAccountTokenTracking. */
  readonly tracking: boolean;
  readonly onError?: (err: unknown) => void;
  /** Milliseconds since the epoch that expiry is checked against (default Date.now). */
  readonly now?: () => number;
}): ServiceAccountTokens {
  const signingFile = o.flags.signingKeyFile ?? ensureServiceAccountKey(o.pkiDir);
  const signingKeyPem = readFileSync(signingFile, 'utf8');
  const signing: SigningKey = signingKeyFromPem(signingKeyPem, signingFile);
  const keys = new Map<string, VerificationKey>([[signing.kid, signing]]);
  for (const file of o.flags.keyFiles ?? []) {
    for (const k of verificationKeysFromPem(readFileSync(file, 'utf8'), file)) keys.set(k.kid, k);
  }
  const verification = [...keys.values()];
  const issuers =
    o.flags.issuers !== undefined && o.flags.issuers.length > 0
      ? o.flags.issuers
      : [defaultServiceAccountIssuer];
  const apiAudiences =
    o.flags.apiAudiences !== undefined && o.flags.apiAudiences.length > 0 ? o.flags.apiAudiences : issuers;
  const generator = jwtTokenGenerator(signing);
  const issuer: BoundTokenIssuer = {
    apiAudiences,
    maxExpirationSeconds: o.flags.maxTokenExpirationSeconds ?? 0,
    extendExpiration: o.flags.extendTokenExpiration ?? true,
    issue: (i) => generator.generate(boundClaims({ ...i, issuer: issuers[0]! })),
  };
  const legacy = jwtAuthenticator({
    issuers: [legacyIssuer],
    keys: () => verification,
    implicitAudiences: apiAudiences,
    validator: legacyTokenValidator({
      getter: o.getter,
      tracking: o.tracking,
      labelSecret: o.labelSecret,
      ...(o.now !== undefined ? { now: o.now } : {}),
      ...(o.onError !== undefined ? { onError: o.onError } : {}),
    }),
  });
  const bound = jwtAuthenticator({
    issuers,
    keys: () => verification,
    implicitAudiences: apiAudiences,
    validator: boundTokenValidator({ getter: o.getter, ...(o.now !== undefined ? { now: o.now } : {}) }),
  });
  return {
    issuer,
    apiAudiences,
    authenticators: [legacy, bound],
    signingKeyPem,
    documents(externalAddress) {
      let cached: { address: string; docs: ReturnType<typeof openIDMetadata> } | undefined;
      const docs = (): ReturnType<typeof openIDMetadata> => {
        const address = externalAddress();
        if (cached?.address !== address) {
          cached = {
            address,
            docs: openIDMetadata({
              issuer: issuers[0]!,
              ...(o.flags.jwksURI !== undefined ? { jwksURI: o.flags.jwksURI } : {}),
              externalAddress: address,
              keys: verification,
            }),
          };
        }
        return cached.docs;
      };
      try {
        docs();
      } catch {
        // upstream logs that discovery is off and serves neither path
        return [];
      }
      return [
        {
          path: openIDConfigPath,
          contentType: 'application/json',
          cacheControl: discoveryCacheControl,
          body: () => docs().configuration,
        },
        {
          path: jwksPath,
          contentType: jwksContentType,
          cacheControl: discoveryCacheControl,
          body: () => docs().jwks,
        },
      ];
    },
  };
}
