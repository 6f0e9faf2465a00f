/**
 * `--proxy-mode iptables`: the simulated nodes' proxies (proxy/node-proxies.ts), run in the API
 * server's thread with informers of their own over the in-process transport, whether the nodes
 * run in this thread or on the components thread. nodes/{name}:{port}/proxy reaches them.
 */
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { stripManagedFields } from '../../client/shared-informer.js';
import { RestClient } from '../../client/rest-client.js';
import type { Transport } from '../../client/transport.js';
import { simulatedNodeNames } from '../../nodes/index.js';
import { NodeProxies } from '../../proxy/node-proxies.js';
import type { NodePortsRelay } from '../../registry/resources/core/pod-connect.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { ipv6PodCIDRFor } from '../node-ip.js';
import type { IpFamily } from '../../proxy/service-port.js';
import { podCIDRFor } from './controllers.js';

export interface RunningNodeProxies {
  readonly proxies: NodeProxies;
  stop(): Promise<void>;
}

export function startNodeProxies(o: {
  readonly transport: Transport;
  /** How many simulated nodes (`--nodes`). */
  readonly nodes: number;
  /** The cluster's IP families (of its service ranges): each node runs a proxy per family. */
  readonly families: readonly IpFamily[];
  /** Where nodes/proxy finds them. */
  readonly relay: NodePortsRelay;
  readonly log: Logger;
  readonly clock?: Clock;
}): RunningNodeProxies {
  const client = new RestClient({ transport: o.transport });
  const abort = new AbortController();
  const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  const informers = new SharedInformerFactory({
    client,
    transform: stripManagedFields,
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    onError: (err, path) => o.log.v(2, `node proxies: informer ${path}: ${message(err)}`),
  });
  const proxies = new NodeProxies({
    informers,
    nodeNames: simulatedNodeNames(o.nodes),
    families: o.families,
    // The simulated nodes' pod addresses: traffic to a cluster IP from elsewhere is masqueraded.
    clusterCIDRs: [podCIDRFor(o.nodes), ipv6PodCIDRFor(o.nodes)],
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    onError: (node, err) => o.log.error(`proxy of node ${node}: sync failed: ${message(err)}`),
  });
  const running = proxies.run(abort.signal);
  informers.start(abort.signal);
  o.relay.source = proxies;
  return {
    proxies,
    async stop() {
      delete o.relay.source;
      abort.abort();
      await running;
      await informers.stopped();
      client.close();
    },
  };
}
