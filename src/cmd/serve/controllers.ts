/**
 * What `nanokube serve` runs in-process beside the API server, talking to it over its own HTTPS
 * endpoint with the admin credentials (the path a separate process would take): the API server's
 * own `kubernetes` Service controller, the controller manager (controller-manager/run.ts) with the
 * controllers `--controllers` selects, under leader election, and `--nodes` simulated nodes with
 * the scheduler (nodes/).
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ClientCredentials } from '../../client/credentials.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { stripManagedFields } from '../../client/shared-informer.js';
import type { Transport } from '../../client/transport.js';
import { RestClient } from '../../client/rest-client.js';
import { LeaderElector } from '../../client/leader-election.js';
import { Scheduler, SimulatedNodes } from '../../nodes/index.js';
import type { NodeTemplate } from '../../nodes/index.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { runControllerManager } from '../controller-manager/run.js';
import type { NodeIpamFlags } from '../node-ipam-flags.js';
import { defaultServiceClusterIPRange, dnsServiceIP } from './flags.js';
import { ipv6PodCIDRFor, podCIDRsFor } from '../node-ip.js';
import { parseControllers } from '../controller-manager/selection.js';
import type { ContainerRelay } from '../../registry/resources/core/pod-connect.js';

export interface RunningControllers {
  stop(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What the in-process controllers need of the server's flags. */
export interface ApiserverServiceFlags {
  /** The port the server listens on (the Service's targetPort and the Endpoints port). */
  readonly securePort: number;
  readonly bindAddress: string;
  readonly serviceClusterIPRange?: string;
  readonly advertiseAddress?: string;
  /** The nodeipam controller's options (`--allocate-node-cidrs`); without them it allocates nothing. */
  readonly nodeIpam?: NodeIpamFlags;
  /** `--controllers` (default `*`). */
  readonly controllers?: string;
  /** The data dir: this installation's leader-election identity derives from it. */
  readonly dataDir: string;
  /** The leader-election identity instead of the data dir's. */
  readonly identity?: string;
  /** Where the CA csrsigning signs with is (default `<dataDir>/pki`). */
  readonly pkiDir?: string;
  /** `--nodes` (default 1): simulated nodes, with the scheduler; 0 runs neither. */
  readonly nodes?: number;
  /** `--node-capacity`/`--node-labels`. */
  readonly nodeTemplate?: NodeTemplate;
  /** `--node-ip`: the first node's InternalIP per family; pod CIDRs follow its families (NW-08). */
  readonly nodeIPs?: readonly string[];
  /** `--feature-gates`, for the controllers that read gates. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** The key legacy service-account tokens are signed with (the serviceaccount-token controller's). */
  readonly serviceAccountPrivateKeyPem?: string;
  /** The one clock every controller, node and informer times with (tests; default: the real clock). */
  readonly clock?: Clock;
}

/** kubeadm's default pod network holds 256 /24 node ranges; larger clusters get a /8. */
export function podCIDRFor(nodes: number): string {
  return nodes <= 256 ? '10.244.0.0/16' : '10.0.0.0/8';
}

/** The Lease the simulated nodes of several servers campaign for (the scheduler's is kube-scheduler). */
export const simulatedNodesLease = 'nanokube-simulated-nodes';

/**
 * A leader-election identity stable across restarts of one installation (hostname and data dir),
 * so a restarted server takes its own Lease back at once instead of waiting for it to expire.
 */
export function installationIdentity(dataDir: string): string {
  const id = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  return `${hostname()}_${id}`;
}

/** The data dir's CA, which csrsigning issues certificates with (as --cluster-signing-*-file). */
function signingCa(pkiDir: string): { certPem: string; keyPem: string } {
  return {
    certPem: readFileSync(join(pkiDir, 'ca.crt'), 'utf8'),
    keyPem: readFileSync(join(pkiDir, 'ca.key'), 'utf8'),
  };
}

/**
 * The in-process components. `transports`, when given, makes the client of each (by user agent)
 * reach the server without the network; otherwise they use HTTPS with `credentials`.
 */
export function startControllers(
  credentials: ClientCredentials,
  log: Logger,
  flags: ApiserverServiceFlags,
  transports?: (userAgent: string) => Transport,
  output?: ContainerRelay,
): RunningControllers {
  const selection = parseControllers(flags.controllers ?? '*');
  const clock = flags.clock ?? realClock;
  if (selection.unavailable.length > 0) {
    log.v(1, `controllers not built yet (not running): ${selection.unavailable.join(', ')}`);
  }
  const client = new RestClient(
    transports !== undefined ? { transport: transports('nanokube-serve-components') } : credentials,
  );
  const abort = new AbortController();
  // One factory for the controller manager, the nodes and the scheduler: each resource is listed
  // and watched once in this process, not once per component.
  const informers = new SharedInformerFactory({
    client,
    clock,
    // The server's own WatchList gate: its components sync through WatchList when it is on (AM-02).
    useWatchList: flags.featureGates?.['WatchList'] === true ? 'auto' : 'never',
    // Components never read managedFields: their caches hold objects without them.
    transform: stripManagedFields,
    onError: (err, path) => log.v(2, `informer ${path}: ${message(err)}`),
  });
  // With nothing selected, do not campaign: a separate controller manager may want the Lease.
  const manager =
    selection.enabled.size === 0
      ? undefined
      : runControllerManager({
          credentials,
          ...(transports !== undefined ? { transport: transports('nanokube-controller-manager') } : {}),
          controllers: selection.enabled,
          log,
          leaderElection: { identity: flags.identity ?? installationIdentity(flags.dataDir) },
          ...(flags.nodeIpam !== undefined ? { nodeIpam: flags.nodeIpam } : {}),
          signing: signingCa(flags.pkiDir ?? join(flags.dataDir, 'pki')),
          ...(flags.serviceAccountPrivateKeyPem !== undefined
            ? { serviceAccountPrivateKeyPem: flags.serviceAccountPrivateKeyPem }
            : {}),
          clock,
          ...(flags.featureGates !== undefined ? { featureGates: flags.featureGates } : {}),
          informers,
        });
  const running: Promise<unknown>[] = [];
  const nodes = flags.nodes ?? 1;
  // The simulated kubelets' clusterDNS, where kubeadm puts it: the tenth address of the range.
  const clusterDNS = dnsServiceIP(flags.serviceClusterIPRange ?? defaultServiceClusterIPRange);
  // The terms the scheduler and the nodes ran while leading (awaited on stop).
  const terms: Promise<unknown>[] = [];
  if (nodes > 0) {
    // Like kube-scheduler (--leader-elect, on by default), the scheduler and the simulated nodes
    // run only while this server holds their Lease: of several servers on one etcd, one runs them,
    // and another takes over within the lease duration when it dies.
    const identity = flags.identity ?? installationIdentity(flags.dataDir);
    const lead = (name: string, start: (signal: AbortSignal) => Promise<unknown>): Promise<void> =>
      new LeaderElector({
        client,
        namespace: 'kube-system',
        name,
        identity,
        clock,
        onStartedLeading: (signal) => {
          log.v(1, `${name}: leading as ${identity}`);
          terms.push(start(signal));
        },
        onStoppedLeading: () => log.v(1, `${name}: lost the lease; stopped`),
        onError: (err) => log.v(2, `${name} leader election: ${message(err)}`),
      }).run(abort.signal);
    running.push(
      lead(simulatedNodesLease, (signal) => {
        const simulated = new SimulatedNodes({
          client,
          informers,
          clock,
          count: nodes,
          podCIDRs: podCIDRsFor(flags.nodeIPs, podCIDRFor(nodes), ipv6PodCIDRFor(nodes)),
          ...(flags.nodeIPs !== undefined ? { nodeIPs: flags.nodeIPs } : {}),
          ...(flags.nodeTemplate !== undefined ? { nodeTemplate: flags.nodeTemplate } : {}),
          ...(clusterDNS !== undefined ? { clusterDNS: [clusterDNS] } : {}),
          onError: (err) => log.v(2, `simulated nodes: ${message(err)}`),
        });
        // pods/log in this process reads the output of the programs the nodes follow.
        if (output !== undefined) output.source = simulated;
        return simulated.run(signal);
      }),
      lead('kube-scheduler', (signal) =>
        new Scheduler({
          client,
          informers,
          clock,
          onError: (err) => log.v(2, `scheduler: ${message(err)}`),
        }).run(signal),
      ),
    );
  }
  informers.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled([...running, ...(manager !== undefined ? [manager.stop()] : [])]);
      await Promise.allSettled(terms);
      await informers.stopped();
      client.close();
    },
  };
}
