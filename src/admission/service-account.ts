/**
 * ServiceAccount (kube-apiserver v1.27's plugin/pkg/admission/serviceaccount): every new pod runs
 * as a service account — `default` unless it names one — that must exist; unless the pod or the
 * account opts out (`automountServiceAccountToken: false`), every container and init container
 * mounts a `kube-api-access-<5 chars>` projected volume (a bound token of 3607 s, the
 * `kube-root-ca.crt` CA bundle and the namespace) read-only at
 * /var/run/secrets/kubernetes.io/serviceaccount, and the account's image pull secrets are copied
 * when the pod names none. Mirror pods may reference neither accounts nor secrets, and an account
 * annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits the secrets its pods use.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import type { KubeObject } from '../machinery/object.js';
import type { AdmissionAttributes } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { forbidden } from './errors.js';
import type { AdmissionPlugin } from './plugin.js';

export const defaultServiceAccountName = 'default';
export const tokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
const volumePrefix = 'kube-api-access-';
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and 7 s, recognised by the token issuer. */
const tokenExpirationSeconds = 3607;
const serviceAccounts = { group: '', resource: 'serviceaccounts' };

/** upstream's SimpleNameGenerator alphabet (no vowels, no confusable digits). */
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet.charAt(Math.floor(Math.random() * alphabet.length));
  return s;
}

export interface ServiceAccountPluginOptions {
  /** Volume name suffix generator (tests pin it). */
  readonly suffix?: () => string;
  /** Pause between live lookups of a missing `default` account (upstream: 100-200 ms, 10 tries). */
  readonly retryDelayMs?: number;
}

function arr(v: JsonValue | undefined): JsonValue[] {
  return Array.isArray(v) ? v : [];
}

function objOf(v: JsonValue | undefined): JsonObject {
  return isJsonObject(v) ? v : {};
}

/** A JSON string, or '' for anything else. */
function str(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** The projected volume upstream's TokenVolumeSource builds (defaultMode 0644 set explicitly). */
function tokenVolume(name: string): JsonObject {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

function shouldAutomount(account: KubeObject, spec: JsonObject): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  if (typeof account['automountServiceAccountToken'] === 'boolean')
    return account['automountServiceAccountToken'];
  return true;
}

function mountToken(spec: JsonObject, suffix: () => string): void {
  const volumes = arr(spec['volumes']);
  const existing = volumes.find(
    (v) => isJsonObject(v) && typeof v['name'] === 'string' && v['name'].startsWith(volumePrefix),
  );
  const volumeName = isJsonObject(existing) ? str(existing['name']) : volumePrefix + suffix();
  let needsVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const c of arr(spec[field])) {
      if (!isJsonObject(c)) continue;
      const mounts = arr(c['volumeMounts']);
      // An existing mount at the token path keeps the container as it is.
      if (mounts.some((m) => isJsonObject(m) && m['mountPath'] === tokenMountPath)) continue;
      c['volumeMounts'] = [...mounts, { name: volumeName, readOnly: true, mountPath: tokenMountPath }];
      needsVolume = true;
    }
  }
  if (existing === undefined && needsVolume) spec['volumes'] = [...volumes, tokenVolume(volumeName)];
}

/** Secret names a pod references (podutil.VisitPodSecretNames over every container kind). */
function secretReferences(spec: JsonObject): { volume: string[]; env: [string, string, string][] } {
  const volume: string[] = [];
  for (const v of arr(spec['volumes'])) {
    const secret = objOf(objOf(v)['secret']);
    if (typeof secret['secretName'] === 'string') volume.push(secret['secretName']);
  }
  const env: [string, string, string][] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of arr(spec[field])) {
      const container = objOf(c);
      for (const e of arr(container['env'])) {
        const ref = objOf(objOf(objOf(e)['valueFrom'])['secretKeyRef']);
        if (typeof ref['name'] === 'string') env.push([field, str(container['name']), ref['name']]);
      }
    }
  }
  return { volume, env };
}

const containerWords: Readonly<Record<string, string>> = {
  initContainers: 'init container',
  containers: 'container',
  ephemeralContainers: 'ephemeral container',
};

/** limitSecretReferences: every secret the pod uses must be listed by its account. */
function limitSecretReferences(account: KubeObject, spec: JsonObject): string | undefined {
  const name = account.metadata.name ?? '';
  const mountable = new Set(arr(account['secrets']).map((s) => str(objOf(s)['name'])));
  const refs = secretReferences(spec);
  for (const secret of refs.volume) {
    if (!mountable.has(secret)) {
      return `volume with secret.secretName="${secret}" is not allowed because service account ${name} does not reference that secret`;
    }
  }
  for (const field of ['initContainers', 'containers']) {
    for (const c of arr(spec[field])) {
      const container = objOf(c);
      for (const e of arr(container['envFrom'])) {
        const ref = objOf(objOf(e)['secretRef']);
        if (typeof ref['name'] === 'string' && !mountable.has(ref['name'])) {
          return `${containerWords[field]!} ${str(container['name'])} with envFrom referencing secret.secretName="${ref['name']}" is not allowed because service account ${name} does not reference that secret`;
        }
      }
      for (const e of arr(container['env'])) {
        const ref = objOf(objOf(objOf(e)['valueFrom'])['secretKeyRef']);
        if (typeof ref['name'] === 'string' && !mountable.has(ref['name'])) {
          return `${containerWords[field]!} ${str(container['name'])} with envVar ${str(objOf(e)['name'])} referencing secret.secretName="${ref['name']}" is not allowed because service account ${name} does not reference that secret`;
        }
      }
    }
  }
  const pullSecrets = new Set(arr(account['imagePullSecrets']).map((s) => str(objOf(s)['name'])));
  const podPull = arr(spec['imagePullSecrets']);
  for (let i = 0; i < podPull.length; i++) {
    const secret = str(objOf(podPull[i])['name']);
    if (!pullSecrets.has(secret)) {
      return `imagePullSecrets[${i}].name="${secret}" is not allowed because service account ${name} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined;
}

function handled(a: AdmissionAttributes): boolean {
  return (
    a.resource.group === '' &&
    a.resource.resource === 'pods' &&
    (a.subresource === '' || a.subresource === 'ephemeralcontainers')
  );
}

export function serviceAccountPlugin(
  deps: AdmissionDependencies,
  options: ServiceAccountPluginOptions = {},
): AdmissionPlugin {
  const suffix = options.suffix ?? randomSuffix;
  const retryDelay = options.retryDelayMs ?? 100;

  /** The account from the cache, else from storage (ten tries for `default`, which a controller makes). */
  const getAccount = async (namespace: string, name: string): Promise<KubeObject | undefined> => {
    const cached = await deps.lookup.get(serviceAccounts, namespace, name);
    if (cached !== undefined) return cached;
    const attempts = name === defaultServiceAccountName ? 10 : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, retryDelay + Math.floor(Math.random() * retryDelay)));
      const live = await (deps.lookup.getLive ?? deps.lookup.get)(serviceAccounts, namespace, name);
      if (live !== undefined) return live;
    }
    return undefined;
  };

  const lookupError = (a: AdmissionAttributes, account: string) =>
    forbidden(
      a,
      `error looking up service account ${a.namespace}/${account}: serviceaccount "${account}" not found`,
    );

  const validateMirrorPod = (a: AdmissionAttributes, pod: KubeObject): void => {
    const spec = objOf(pod['spec']);
    if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== '') {
      throw forbidden(a, 'a mirror pod may not reference service accounts');
    }
    const refs = secretReferences(spec);
    const pullSecrets = arr(spec['imagePullSecrets']).length > 0;
    if (refs.volume.length > 0 || refs.env.length > 0 || pullSecrets) {
      throw forbidden(a, 'a mirror pod may not reference secrets');
    }
    for (const v of arr(spec['volumes'])) {
      for (const source of arr(objOf(objOf(v)['projected'])['sources'])) {
        if (isJsonObject(objOf(source)['serviceAccountToken'])) {
          throw forbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
    }
  };

  const validate = async (a: AdmissionAttributes): Promise<void> => {
    if (!handled(a) || a.object === undefined) return;
    const pod = a.object;
    const spec = objOf(pod['spec']);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      const accountName = str(spec['serviceAccountName']);
      if (accountName === '') return;
      const account = await getAccount(a.namespace, accountName);
      if (account === undefined) throw lookupError(a, accountName);
      if (account.metadata.annotations?.[enforceMountableSecretsAnnotation] !== 'true') return;
      const mountable = new Set(arr(account['secrets']).map((s) => str(objOf(s)['name'])));
      for (const c of arr(spec['ephemeralContainers'])) {
        const container = objOf(c);
        for (const e of arr(container['env'])) {
          const ref = objOf(objOf(objOf(e)['valueFrom'])['secretKeyRef']);
          if (typeof ref['name'] === 'string' && !mountable.has(ref['name'])) {
            throw forbidden(
              a,
              `ephemeral container ${str(container['name'])} with envVar ${str(objOf(e)['name'])} referencing secret.secretName="${ref['name']}" is not allowed because service account ${accountName} does not reference that secret`,
            );
          }
        }
      }
      return;
    }
    if (a.operation !== 'CREATE' || a.subresource !== '') return;
    if (isMirrorPod(pod)) {
      validateMirrorPod(a, pod);
      return;
    }
    const accountName = typeof spec['serviceAccountName'] === 'string' ? spec['serviceAccountName'] : '';
    if (accountName === '') {
      throw forbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
    }
    const account = await getAccount(a.namespace, accountName);
    if (account === undefined) throw lookupError(a, accountName);
    if (account.metadata.annotations?.[enforceMountableSecretsAnnotation] === 'true') {
      const err = limitSecretReferences(account, spec);
      if (err !== undefined) throw forbidden(a, err);
    }
  };

  return {
    name: 'ServiceAccount',
    operations: new Set(['CREATE', 'UPDATE']),
    admit: async (a) => {
      if (!handled(a) || a.operation !== 'CREATE' || a.subresource !== '') return;
      const pod = a.object;
      // Mirror pods are the kubelet's: their spec is left alone (a change would make it delete them).
      if (isMirrorPod(pod)) return;
      if (!isJsonObject(pod['spec'])) pod['spec'] = {};
      const spec = pod['spec'];
      if (typeof spec['serviceAccountName'] !== 'string' || spec['serviceAccountName'] === '') {
        // The deprecated `serviceAccount` stands in for a missing name (the v1 conversion's rule).
        const deprecated = spec['serviceAccount'];
        spec['serviceAccountName'] =
          typeof deprecated === 'string' && deprecated !== '' ? deprecated : defaultServiceAccountName;
      }
      const accountName = spec['serviceAccountName'];
      // The deprecated alias, as the v1 conversion writes it.
      spec['serviceAccount'] = accountName;
      const account = await getAccount(a.namespace, accountName);
      if (account === undefined) throw lookupError(a, accountName);
      if (shouldAutomount(account, spec)) mountToken(spec, suffix);
      if (arr(spec['imagePullSecrets']).length === 0 && arr(account['imagePullSecrets']).length > 0) {
        spec['imagePullSecrets'] = arr(account['imagePullSecrets']).map((s) => ({
          name: str(objOf(s)['name']),
        }));
      }
    },
    validate,
  };
}
