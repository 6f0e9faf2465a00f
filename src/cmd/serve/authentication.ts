/**
 * The request authenticator of `nanokube serve` (kube-apiserver's authenticator config, v1.27):
 * x509 client certificates, then bearer tokens — the `--token-auth-file` users, legacy
 * Secret-based service-account tokens, bound service-account tokens — and anonymous requests only
 * with `--anonymous-auth` (off by default in nanokube). Service-account token validation reads the
 * stores on every request (no cache can keep a deleted service account's token alive).
 */
import { readFileSync } from 'node:fs';
import type { Authenticator } from '../../auth/authenticator.js';
import { bearerTokenAuthenticator, unionTokenAuthenticator } from '../../auth/token-authenticator.js';
import type { TokenAuthenticator } from '../../auth/token-authenticator.js';
import { parseTokenFile, tokenFileAuthenticator } from '../../auth/token-file.js';
import { unionAuthenticator } from '../../auth/union-authenticator.js';
import { x509Authenticator } from '../../auth/x509.js';
import type { NonResourceDocument } from '../../apiserver/server.js';
import type { FeatureGates } from '../../machinery/features.js';
import type { KubeObject } from '../../machinery/object.js';
import { serverUser } from '../../machinery/user.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { BoundTokenIssuer } from '../../registry/resources/core/serviceaccount-token.js';
import type { Logger } from '../../util/log.js';
import { serviceAccountTokens } from '../serviceaccount-tokens.js';
import type { ServiceAccountTokenFlags } from '../serviceaccount-tokens.js';

export interface ServeAuthentication {
  readonly authenticator: Authenticator;
  readonly apiAudiences: readonly string[];
  readonly issuer: BoundTokenIssuer;
  readonly documents: (externalAddress: () => string) => NonResourceDocument[];
  readonly serviceAccountKeyPem: string;
}

/** Reads a store's current object (not its watch cache); undefined when absent. */
function currentObject(store: GenericStore) {
  return (namespace: string, name: string): Promise<KubeObject | undefined> =>
    store.storage.get(store.key(namespace, name));
}

export function serveAuthentication(o: {
  readonly pkiDir: string;
  readonly anonymous: boolean;
  readonly tokenAuthFile?: string;
  readonly serviceAccounts?: ServiceAccountTokenFlags;
  readonly features: FeatureGates;
  readonly stores: { serviceAccounts: GenericStore; pods: GenericStore; secrets: GenericStore };
  readonly log: Logger;
  /** Milliseconds since the epoch tokens' expiry is checked against (default Date.now). */
  readonly now?: () => number;
}): ServeAuthentication {
  const secrets = o.stores.secrets;
  const sa = serviceAccountTokens({
    flags: o.serviceAccounts ?? {},
    pkiDir: o.pkiDir,
    getter: {
      serviceAccount: currentObject(o.stores.serviceAccounts),
      pod: currentObject(o.stores.pods),
      secret: currentObject(secrets),
    },
    // upstream's merge patch of the label with the Secret's uid, as the API server itself.
    labelSecret: async (secret, labels) => {
      const namespace = secret.metadata.namespace ?? '';
      await secrets.update(
        namespace,
        secret.metadata.name ?? '',
        (current) => {
          if (current === undefined) return secret;
          return {
            ...current,
            metadata: { ...current.metadata, labels: { ...current.metadata.labels, ...labels } },
          };
        },
        { dryRun: false, user: serverUser, uidPrecondition: secret.metadata.uid ?? '' },
      );
    },
    tracking: o.features.enabled('LegacyServiceAccountTokenTracking'),
    ...(o.now !== undefined ? { now: o.now } : {}),
    onError: (err) =>
      o.log.error(
        `Failed to label legacy service account token secret with last-used: ${err instanceof Error ? err.message : String(err)}`,
      ),
  });
  // kube-apiserver's order: the token file, then the service-account tokens.
  const tokenAuthenticators: TokenAuthenticator[] = [];
  if (o.tokenAuthFile !== undefined) {
    const file = parseTokenFile(readFileSync(o.tokenAuthFile, 'utf8'), o.tokenAuthFile);
    for (const w of file.warnings) o.log.info(w);
    tokenAuthenticators.push(tokenFileAuthenticator(file, sa.apiAudiences));
  }
  tokenAuthenticators.push(...sa.authenticators);
  const authenticator = unionAuthenticator({
    authenticators: [
      x509Authenticator(),
      bearerTokenAuthenticator({
        tokens: unionTokenAuthenticator(tokenAuthenticators),
        apiAudiences: sa.apiAudiences,
      }),
    ],
    anonymous: o.anonymous,
  });
  return {
    authenticator,
    apiAudiences: sa.apiAudiences,
    issuer: sa.issuer,
    documents: (address) => sa.documents(address),
    serviceAccountKeyPem: sa.signingKeyPem,
  };
}
