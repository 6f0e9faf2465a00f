/**
 * The tokens controller (kube-controller-manager's `serviceaccount-token`, upstream
 * pkg/controller/serviceaccount/tokens_controller.go, v1.27). Secrets of type
 * kubernetes.io/service-account-token that name a service account
 * (`kubernetes.io/service-account.name`, optionally `.uid`) get the legacy token, `ca.crt` and
 * `namespace` filled in and the uid annotation set; such a Secret whose service account is gone
 * is deleted, and so are a deleted service account's token Secrets. A deleted token Secret is
 * removed from its service account's `secrets`. Nothing is generated for service accounts on
 * their own (LegacyServiceAccountTokenNoAutoGeneration, beta and on in v1.27).
 */
import { ApiError } from '../../client/api-error.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import { keyFor, nameOf } from '../../client/object-meta.js';
import type { RestClient } from '../../client/rest-client.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameKey = 'kubernetes.io/service-account.name';
export const serviceAccountUIDKey = 'kubernetes.io/service-account.uid';

/** Makes the legacy token of `secret` for `serviceAccount` (cmd/ holds the signing key). */
export type LegacyTokenGenerator = (serviceAccount: JsonObject, secret: JsonObject) => Promise<string>;

export interface TokensControllerOptions {
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly generate: LegacyTokenGenerator;
  /** `--root-ca-file`: what `ca.crt` holds (PEM); empty: none. */
  readonly rootCaPem: string;
  readonly onError?: (err: unknown) => void;
  readonly clock?: Clock;
}

const secretsPath = '/api/v1/secrets';
const serviceAccountsPath = '/api/v1/serviceaccounts';

function meta(o: JsonObject): JsonObject {
  return isJsonObject(o['metadata']) ? o['metadata'] : {};
}

function annotation(o: JsonObject, key: string): string {
  const a = meta(o)['annotations'];
  if (!isJsonObject(a)) return '';
  const v = a[key];
  return typeof v === 'string' ? v : '';
}

function uidOf(o: JsonObject): string {
  const u = meta(o)['uid'];
  return typeof u === 'string' ? u : '';
}

function isTokenSecret(o: JsonObject): boolean {
  return o['type'] === serviceAccountTokenType;
}

/** upstream IsServiceAccountToken. */
function isTokenOf(secret: JsonObject, sa: { name: string; uid: string }): boolean {
  if (!isTokenSecret(secret) || annotation(secret, serviceAccountNameKey) !== sa.name) return false;
  const uid = annotation(secret, serviceAccountUIDKey);
  return uid === '' || uid === sa.uid;
}

function dataOf(o: JsonObject): Record<string, string> {
  const d = o['data'];
  if (!isJsonObject(d)) return {};
  return Object.fromEntries(Object.entries(d).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

const encode = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

export class TokensController {
  readonly #o: TokensControllerOptions;
  readonly #secrets: WorkQueue;
  readonly #serviceAccounts: WorkQueue;
  /** Secrets seen deleted: the service account they named (to drop the reference). */
  readonly #deletedSecrets = new Map<string, { name: string; uid: string; secretUID: string }>();
  /** Service accounts seen deleted: their uid (to delete their token Secrets). */
  readonly #deletedServiceAccounts = new Map<string, string>();

  constructor(o: TokensControllerOptions) {
    this.#o = o;
    const queue = (what: string): WorkQueue =>
      new WorkQueue({
        ...(o.onError !== undefined
          ? {
              onError: (err: unknown, key: string) =>
                o.onError?.(new Error(`${what} ${key}: ${err instanceof Error ? err.message : String(err)}`)),
            }
          : {}),
        ...(o.clock !== undefined ? { clock: o.clock } : {}),
      });
    this.#secrets = queue('secret');
    this.#serviceAccounts = queue('serviceaccount');
  }

  async run(signal: AbortSignal): Promise<void> {
    const secrets = this.#o.informers.informerFor(secretsPath);
    const serviceAccounts = this.#o.informers.informerFor(serviceAccountsPath);
    const registrations = [
      secrets.addEventHandler({
        onAdd: (s) => {
          if (isTokenSecret(s)) this.#secrets.add(objectKey(s));
        },
        onUpdate: (_old, s) => {
          if (isTokenSecret(s)) this.#secrets.add(objectKey(s));
        },
        onDelete: (s) => {
          if (!isTokenSecret(s)) return;
          this.#deletedSecrets.set(objectKey(s), {
            name: annotation(s, serviceAccountNameKey),
            uid: annotation(s, serviceAccountUIDKey),
            secretUID: uidOf(s),
          });
          this.#secrets.add(objectKey(s));
        },
      }),
      serviceAccounts.addEventHandler({
        onDelete: (sa) => {
          this.#deletedServiceAccounts.set(objectKey(sa), uidOf(sa));
          this.#serviceAccounts.add(objectKey(sa));
        },
      }),
    ];
    try {
      await Promise.all([
        this.#secrets.run((key) => this.#syncSecret(key, signal), signal),
        this.#serviceAccounts.run((key) => this.#syncServiceAccount(key, signal), signal),
      ]);
    } finally {
      for (const r of registrations) r.remove();
    }
  }

  /** A deleted service account: its token Secrets go too (upstream deleteTokens). */
  async #syncServiceAccount(key: string, signal: AbortSignal): Promise<number | undefined> {
    const secrets = this.#o.informers.informerFor(secretsPath);
    const serviceAccounts = this.#o.informers.informerFor(serviceAccountsPath);
    if (!(await secrets.synced) || !(await serviceAccounts.synced)) return undefined;
    if (serviceAccounts.store.get(key) !== undefined) return undefined;
    const uid = this.#deletedServiceAccounts.get(key);
    if (uid === undefined) return undefined;
    const [namespace, name] = splitKey(key);
    for (const s of secrets.store.list()) {
      if (nameOf(s).namespace !== namespace || !isTokenOf(s, { name, uid })) continue;
      await this.#deleteSecret(namespace, nameOf(s).name, uidOf(s), signal);
    }
    this.#deletedServiceAccounts.delete(key);
    return undefined;
  }

  async #syncSecret(key: string, signal: AbortSignal): Promise<number | undefined> {
    const secrets = this.#o.informers.informerFor(secretsPath);
    const serviceAccounts = this.#o.informers.informerFor(serviceAccountsPath);
    if (!(await secrets.synced) || !(await serviceAccounts.synced)) return undefined;
    const [namespace, secretName] = splitKey(key);
    const secret = secrets.store.get(key);
    if (secret === undefined) {
      const gone = this.#deletedSecrets.get(key);
      this.#deletedSecrets.delete(key);
      if (gone !== undefined) await this.#removeSecretReference(namespace, gone, secretName, signal);
      return undefined;
    }
    if (!isTokenSecret(secret)) return undefined;
    const sa = await this.#serviceAccount(
      namespace,
      annotation(secret, serviceAccountNameKey),
      annotation(secret, serviceAccountUIDKey),
      signal,
    );
    if (sa === undefined) {
      await this.#deleteSecret(namespace, secretName, uidOf(secret), signal);
      return undefined;
    }
    await this.#fillIfNeeded(sa, secret, signal);
    return undefined;
  }

  /** upstream getServiceAccount with fetchOnCacheMiss: the cache, then a live read. */
  async #serviceAccount(
    namespace: string,
    name: string,
    uid: string,
    signal: AbortSignal,
  ): Promise<JsonObject | undefined> {
    if (name === '') return undefined;
    const matches = (sa: JsonObject | undefined): sa is JsonObject =>
      sa !== undefined && (uid === '' || uid === uidOf(sa));
    const cached = this.#o.informers.informerFor(serviceAccountsPath).store.get(keyFor(namespace, name));
    if (matches(cached)) return cached;
    try {
      const live = await this.#o.client.request('GET', saPath(namespace, name), { signal });
      return matches(live) ? live : undefined;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** upstream secretUpdateNeeded. */
  #needs(secret: JsonObject): { ca: boolean; namespace: boolean; token: boolean } {
    const data = dataOf(secret);
    const ca = this.#o.rootCaPem !== '' && data['ca.crt'] !== encode(this.#o.rootCaPem);
    return { ca, namespace: (data['namespace'] ?? '') === '', token: (data['token'] ?? '') === '' };
  }

  /** upstream generateTokenIfNeeded: on a fresh copy, only when the cache saw the latest one. */
  async #fillIfNeeded(sa: JsonObject, cached: JsonObject, signal: AbortSignal): Promise<void> {
    const cachedNeeds = this.#needs(cached);
    if (!cachedNeeds.ca && !cachedNeeds.namespace && !cachedNeeds.token) return;
    const { namespace, name } = nameOf(cached);
    let live: JsonObject;
    try {
      live = await this.#o.client.request('GET', secretPath(namespace, name), { signal });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    // Our view is stale: the update event will bring us back.
    if (meta(live)['resourceVersion'] !== meta(cached)['resourceVersion']) return;
    const needs = this.#needs(live);
    if (!needs.ca && !needs.namespace && !needs.token) return;
    const data: Record<string, string> = { ...dataOf(live) };
    if (needs.ca) data['ca.crt'] = encode(this.#o.rootCaPem);
    if (needs.namespace) data['namespace'] = encode(namespace);
    if (needs.token) data['token'] = encode(await this.#o.generate(sa, live));
    const current = meta(live)['annotations'];
    const annotations: JsonObject = isJsonObject(current) ? { ...current } : {};
    annotations[serviceAccountNameKey] = nameOf(sa).name;
    annotations[serviceAccountUIDKey] = uidOf(sa);
    const updated: JsonObject = { ...live, metadata: { ...meta(live), annotations }, data };
    try {
      await this.#o.client.request('PUT', secretPath(namespace, name), { body: updated, signal });
    } catch (err) {
      // Changed or gone meanwhile: the next event decides again.
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
  }

  async #deleteSecret(namespace: string, name: string, uid: string, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.client.request('DELETE', secretPath(namespace, name), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', ...(uid !== '' ? { preconditions: { uid } } : {}) },
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }

  /** upstream removeSecretReference: drop the deleted Secret from the service account's `secrets`. */
  async #removeSecretReference(
    namespace: string,
    sa: { name: string; uid: string },
    secretName: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (sa.name === '') return;
    const live = await this.#serviceAccount(namespace, sa.name, sa.uid, signal);
    if (live === undefined) return;
    const refs = Array.isArray(live['secrets']) ? live['secrets'] : [];
    const kept = refs.filter((r) => !(isJsonObject(r) && r['name'] === secretName));
    if (kept.length === refs.length) return;
    try {
      await this.#o.client.request('PUT', saPath(namespace, sa.name), {
        body: { ...live, secrets: kept },
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
  }
}

function objectKey(o: JsonObject): string {
  const { namespace, name } = nameOf(o);
  return keyFor(namespace, name);
}

function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

function secretPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`;
}

function saPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}`;
}
