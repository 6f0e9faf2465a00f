/**
 * The API server's own `kubernetes` Service half of upstream's bootstrap controller, run in the
 * server's thread (with its own informers over the in-process transport) because its lease
 * endpoint reconciler keeps a record in storage (master-leases.ts): with several servers on one
 * etcd, the `kubernetes` Endpoints list every live one.
 */
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { stripManagedFields } from '../../client/shared-informer.js';
import { RestClient } from '../../client/rest-client.js';
import type { Transport } from '../../client/transport.js';
import { ApiserverServiceController } from '../../controllers/apiserver-service/controller.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { defaultAdvertiseAddress, defaultServiceClusterIPRange, firstServiceIP } from './flags.js';
import { MasterLeases } from './master-leases.js';

export interface ApiserverServiceRun {
  stop(): Promise<void>;
}

export function startApiserverService(o: {
  readonly transport: Transport;
  readonly kv: KvStore;
  readonly securePort: number;
  readonly bindAddress: string;
  readonly serviceClusterIPRange?: string;
  readonly advertiseAddress?: string;
  /** The lease reconciler's period and the records' TTL (default 10 s and 15 s; tests shorten them). */
  readonly intervalMs?: number;
  readonly leaseTTLSeconds?: number;
  readonly clock?: Clock;
  readonly log: Logger;
}): ApiserverServiceRun {
  const range = o.serviceClusterIPRange ?? defaultServiceClusterIPRange;
  const serviceIP = firstServiceIP(range);
  if (serviceIP === undefined) {
    o.log.error(`--service-cluster-ip-range ${range}: not a valid CIDR; not keeping the kubernetes Service`);
    return { stop: () => Promise.resolve() };
  }
  const endpointIP = o.advertiseAddress ?? defaultAdvertiseAddress(o.bindAddress);
  if (endpointIP === undefined) {
    o.log.error(
      'no non-loopback IPv4 address to advertise: the kubernetes Service is kept without Endpoints',
    );
  }
  const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  const client = new RestClient({ transport: o.transport });
  const abort = new AbortController();
  const informers = new SharedInformerFactory({
    client,
    transform: stripManagedFields,
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    onError: (err, path) => o.log.v(2, `kubernetes-service-controller: informer ${path}: ${message(err)}`),
  });
  const running = new ApiserverServiceController({
    client,
    informers,
    serviceIP,
    endpointPort: o.securePort,
    ...(endpointIP !== undefined
      ? {
          endpointIP,
          leases: new MasterLeases({
            kv: o.kv,
            ip: endpointIP,
            port: o.securePort,
            ...(o.leaseTTLSeconds !== undefined ? { ttlSeconds: o.leaseTTLSeconds } : {}),
          }),
        }
      : {}),
    ...(o.intervalMs !== undefined ? { intervalMs: o.intervalMs } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    onError: (err) => o.log.v(2, `kubernetes-service-controller: ${message(err)}`),
  }).run(abort.signal);
  informers.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await running;
      await informers.stopped();
      client.close();
    },
  };
}
