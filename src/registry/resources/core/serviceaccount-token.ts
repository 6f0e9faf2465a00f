/**
 * serviceaccounts/{name}/token (upstream pkg/registry/core/serviceaccount/storage/token.go, v1.27):
 * a TokenRequest for an existing service account, optionally bound to a Pod or Secret of its
 * namespace, answered with a signed token and its expiry. The token itself is made by the issuer
 * cmd/ injects (auth/serviceaccount), so the registry knows the rules but holds no key.
 */
import { apiErrors } from '../../../machinery/errors.js';
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { KubeObject } from '../../../machinery/object.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import type { GenericStore } from '../../generic/store.js';

export interface BoundObject {
  readonly name: string;
  readonly uid: string;
}

/** What the TokenRequest REST needs of the token issuer. */
export interface BoundTokenIssuer {
  /** `--api-audiences` (default: the issuer). */
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds (0: no maximum). */
  readonly maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration` (default true). */
  readonly extendExpiration: boolean;
  issue(input: {
    readonly namespace: string;
    readonly serviceAccount: BoundObject;
    readonly pod?: BoundObject;
    readonly secret?: BoundObject;
    readonly audiences: readonly string[];
    readonly expirationSeconds: number;
    readonly warnAfterSeconds: number;
    /** Unix seconds. */
    readonly now: number;
  }): Promise<string>;
}

/** upstream token.WarnOnlyBoundTokenExpirationSeconds and ExpirationExtensionSeconds. */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;
const minTokenAgeSeconds = 10 * 60;
const maxTokenAgeSeconds = 2 ** 32;
const tokenRequestKind = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

function goTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export async function requestToken(o: {
  readonly serviceAccounts: GenericStore;
  readonly pods: GenericStore;
  readonly secrets: GenericStore;
  readonly issuer: BoundTokenIssuer;
  readonly namespace: string;
  readonly name: string;
  readonly request: KubeObject;
  /** Adds a warning to the answer. */
  readonly warn: (message: string) => void;
  readonly now?: () => number;
}): Promise<KubeObject> {
  const { namespace, name, issuer } = o;
  const req = o.request;
  const bodyName = req.metadata.name ?? '';
  if (bodyName !== '' && bodyName !== name) {
    throw apiErrors.invalid(tokenRequestKind, name, [
      fieldErrors.invalid(
        FieldPath.root('metadata', 'name'),
        bodyName,
        'must match the service account name if specified',
      ),
    ]);
  }
  const bodyNamespace = req.metadata.namespace ?? '';
  if (bodyNamespace !== '' && bodyNamespace !== namespace) {
    throw apiErrors.invalid(tokenRequestKind, name, [
      fieldErrors.invalid(
        FieldPath.root('metadata', 'namespace'),
        bodyNamespace,
        'must match the service account namespace if specified',
      ),
    ]);
  }
  const sa = await o.serviceAccounts.get(namespace, name);
  const spec: JsonObject = isJsonObject(req['spec']) ? { ...req['spec'] } : {};
  const requestedAudiences = Array.isArray(spec['audiences']) ? spec['audiences'].map(stringOf) : [];
  const audiences = requestedAudiences.length > 0 ? requestedAudiences : [...issuer.apiAudiences];
  spec['audiences'] = audiences;
  let expirationSeconds = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : 3600;
  const nowMs = (o.now ?? Date.now)();
  const errs = [];
  if (expirationSeconds < minTokenAgeSeconds) {
    errs.push(
      fieldErrors.invalid(
        FieldPath.root('spec', 'expirationSeconds'),
        expirationSeconds,
        'may not specify a duration less than 10 minutes',
      ),
    );
  }
  if (expirationSeconds > maxTokenAgeSeconds) {
    errs.push(
      fieldErrors.invalid(
        FieldPath.root('spec', 'expirationSeconds'),
        expirationSeconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    );
  }
  if (errs.length > 0) throw apiErrors.invalid(tokenRequestKind, '', errs);

  let pod: BoundObject | undefined;
  let secret: BoundObject | undefined;
  const ref = isJsonObject(spec['boundObjectRef']) ? spec['boundObjectRef'] : undefined;
  if (ref !== undefined) {
    const apiVersion = stringOf(ref['apiVersion']);
    const kind = stringOf(ref['kind']);
    const refName = stringOf(ref['name']);
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    let uid: string;
    if (group === '' && kind === 'Pod') {
      const p = await o.pods.get(namespace, refName);
      const podSpec = isJsonObject(p['spec']) ? p['spec'] : {};
      if (name !== stringOf(podSpec['serviceAccountName'])) {
        throw apiErrors.badRequest(
          `cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`,
        );
      }
      uid = p.metadata.uid ?? '';
      pod = { name: refName, uid };
    } else if (group === '' && kind === 'Secret') {
      const s = await o.secrets.get(namespace, refName);
      uid = s.metadata.uid ?? '';
      secret = { name: refName, uid };
    } else {
      throw apiErrors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
    }
    const refUID = stringOf(ref['uid']);
    if (refUID !== '' && refUID !== uid) {
      throw apiErrors.conflict(
        { group, resource: kind },
        refName,
        `the UID in the bound object reference (${refUID}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
  }

  if (issuer.maxExpirationSeconds > 0 && expirationSeconds > issuer.maxExpirationSeconds) {
    o.warn(
      `requested expiration of ${expirationSeconds} seconds shortened to ${issuer.maxExpirationSeconds} seconds`,
    );
    expirationSeconds = issuer.maxExpirationSeconds;
  }
  spec['expirationSeconds'] = expirationSeconds;
  // Pod-bound tokens of the default hour-and-7-seconds for the API audiences live a year, warned about after the hour.
  let warnAfterSeconds = 0;
  let tokenSeconds = expirationSeconds;
  const kubeAudiences = audiences.every((a) => issuer.apiAudiences.includes(a));
  if (
    issuer.extendExpiration &&
    pod !== undefined &&
    expirationSeconds === warnOnlyBoundTokenExpirationSeconds &&
    kubeAudiences
  ) {
    warnAfterSeconds = expirationSeconds;
    tokenSeconds = expirationExtensionSeconds;
  }
  const now = Math.floor(nowMs / 1000);
  const token = await issuer.issue({
    namespace,
    serviceAccount: { name: sa.metadata.name ?? name, uid: sa.metadata.uid ?? '' },
    ...(pod !== undefined ? { pod } : {}),
    ...(secret !== undefined ? { secret } : {}),
    audiences,
    expirationSeconds: tokenSeconds,
    warnAfterSeconds,
    now,
  });
  return {
    ...req,
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { ...req.metadata, name, namespace, creationTimestamp: goTime(nowMs) },
    spec,
    status: { token, expirationTimestamp: goTime(now * 1000 + expirationSeconds * 1000) },
  };
}
