/** The per-namespace objects a v1.27 cluster keeps in every namespace. */
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { RestClient } from '../../client/rest-client.js';
import type { Clock } from '../../util/clock.js';
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

/** Upstream's root-CA publisher: `kube-root-ca.crt` with the cluster CA in every namespace. */
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
      metadata: { name: 'kube-root-ca.crt' },
      data: { 'ca.crt': caPem },
    }),
  });
}
