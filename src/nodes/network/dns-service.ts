/**
 * The cluster DNS Service, as kubeadm's CoreDNS add-on creates it: `kube-system/kube-dns` at the
 * address the kubelets are configured with (clusterDNS), ports 53/UDP, 53/TCP and 9153. Simulated
 * nodes answer DNS at that address themselves (cluster-dns.ts); the Service keeps the address
 * from being given to another Service and lets clients find it (`kubectl cluster-info`).
 */
import { ApiError } from '../../client/api-error.js';
import type { RestClient } from '../../client/rest-client.js';
import type { Clock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';

export function dnsService(clusterIP: string): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kube-dns',
      namespace: 'kube-system',
      labels: {
        'k8s-app': 'kube-dns',
        'kubernetes.io/cluster-service': 'true',
        'kubernetes.io/name': 'CoreDNS',
      },
      annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
    },
    spec: {
      selector: { 'k8s-app': 'kube-dns' },
      clusterIP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    },
  };
}

/**
 * Creates the Service unless one of that name exists, retrying while the API server is not ready
 * for it (kube-system not created yet, a server starting). A refusal (the address already taken,
 * forbidden) is reported and not retried.
 */
export async function ensureDnsService(o: {
  readonly client: Pick<RestClient, 'request'>;
  readonly clusterIP: string;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly onError?: (err: unknown) => void;
}): Promise<void> {
  for (let attempt = 0; !o.signal.aborted; attempt++) {
    try {
      await o.client.request('POST', '/api/v1/namespaces/kube-system/services', {
        body: dnsService(o.clusterIP),
        signal: o.signal,
      });
      return;
    } catch (err) {
      if (o.signal.aborted) return;
      if (err instanceof ApiError && err.code === 409) return;
      const retry = !(err instanceof ApiError) || err.code === 404 || err.code >= 500 || err.code === 429;
      o.onError?.(
        new Error(`creating kube-system/kube-dns: ${err instanceof Error ? err.message : String(err)}`),
      );
      if (!retry) return;
      await o.clock.sleep(Math.min(200 * 2 ** attempt, 5000), o.signal).catch(() => undefined);
    }
  }
}
