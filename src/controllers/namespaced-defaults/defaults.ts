/** The per-namespace objects a v1.27 cluster keeps in every namespace. */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { Clock } from '../../util/clock.js';
import { isJsonObject } from '../../util/json.js';
import { EnsureInNamespaces } from './ensure-in-namespaces.js';

export interface DefaultsControllerOptions {
  readonly client: RestClient;
  /** Shared informers (the namespace informer is shared with the other controllers). */
  readonly informers: SharedInformerFactory;
  readonly onError?: (err: unknown) => void;
  /** What retries wait on (default: the real clock). */
  readonly clock?: Clock;
}

/** Upstream's service-account controller: a `default` ServiceAccount in every namespace. */
export function defaultServiceAccountController(o: DefaultsControllerOptions): EnsureInNamespaces {
  return new EnsureInNamespaces({
    ...o,
    name: 'default',
    collection: (ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts`,
    allNamespaces: '/api/v1/serviceaccounts',
    build: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }),
  });
}

const descriptionAnnotation = 'kubernetes.io/description';
const rootCaDescription =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * Upstream's root-CA publisher: `kube-root-ca.crt` with the cluster CA in every namespace. A copy
 * whose data or description annotation was changed is put back (only `ca.crt`, as upstream).
 */
export function rootCaPublisher(
  o: DefaultsControllerOptions & { readonly caPem: string },
): EnsureInNamespaces {
  const { caPem, ...rest } = o;
  return new EnsureInNamespaces({
    ...rest,
    name: 'kube-root-ca.crt',
    collection: (ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`,
    allNamespaces: '/api/v1/configmaps',
    build: () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', annotations: { [descriptionAnnotation]: rootCaDescription } },
      data: { 'ca.crt': caPem },
    }),
    reconcile: (existing) => {
      const data = isJsonObject(existing['data']) ? existing['data'] : {};
      const meta = isJsonObject(existing['metadata']) ? existing['metadata'] : {};
      const annotations = isJsonObject(meta['annotations']) ? meta['annotations'] : {};
      const description = annotations[descriptionAnnotation];
      const keys = Object.keys(data);
      if (
        keys.length === 1 &&
        data['ca.crt'] === caPem &&
        typeof description === 'string' &&
        description !== ''
      )
        return undefined;
      return {
        ...existing,
        metadata: { ...meta, annotations: { ...annotations, [descriptionAnnotation]: rootCaDescription } },
        data: { 'ca.crt': caPem },
      };
    },
  });
}
