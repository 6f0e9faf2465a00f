/** The per-namespace objects a v1.27 cluster keeps in every namespace. */
import type { RestClient } from '../../client/rest-client.js';
import { EnsureInNamespaces } from './ensure-in-namespaces.js';

/** Upstream's service-account controller: a `default` ServiceAccount in every namespace. */
export function defaultServiceAccountController(client: RestClient, onError?: (err: unknown) => void) {
  return new EnsureInNamespaces({
    client,
    name: 'default',
    collection: (ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/serviceaccounts`,
    allNamespaces: '/api/v1/serviceaccounts',
    build: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }),
    ...(onError !== undefined ? { onError } : {}),
  });
}

/** Upstream's root-CA publisher: `kube-root-ca.crt` with the cluster CA in every namespace. */
export function rootCaPublisher(client: RestClient, caPem: string, onError?: (err: unknown) => void) {
  return new EnsureInNamespaces({
    client,
    name: 'kube-root-ca.crt',
    collection: (ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`,
    allNamespaces: '/api/v1/configmaps',
    build: () => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt' },
      data: { 'ca.crt': caPem },
    }),
    ...(onError !== undefined ? { onError } : {}),
  });
}
