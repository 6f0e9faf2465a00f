/**
 * `nanokube controller-manager` and `nanokube nodes`: the controllers, and the simulated nodes with
 * the scheduler, as their own processes against any Kubernetes API server (they use only the
 * client), connected through a kubeconfig.
 */
import { isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { SharedInformerFactory } from '../client/informer-factory.js';
import { stripManagedFields } from '../client/shared-informer.js';
import { FeatureGates } from '../machinery/features.js';
import { RestClient } from '../client/rest-client.js';
import { Scheduler, SimulatedNodes } from '../nodes/index.js';
import { createLogger } from '../util/log.js';
import { runControllerManager } from './controller-manager/run.js';
import { parseControllers } from './controller-manager/selection.js';
import { credentialsFromKubeconfig } from './kubeconfig-credentials.js';
import { nodeTemplateOf } from './node-flags.js';
import { ipv6PodCIDRFor, nodeIPsOf, podCIDRsFor } from './node-ip.js';
import { FlagError } from './serve/flags.js';
import { podCIDRFor } from './serve/controllers.js';
import { nodeIpamFlagNames, nodeIpamOf, nodeIpamUsage } from './node-ipam-flags.js';

export const controllerManagerUsage = `Usage: nanokube controller-manager --kubeconfig FILE [flags]

Flags:
  --kubeconfig FILE           how to reach the API server (required)
  --context NAME              kubeconfig context (default: its current-context)
  --controllers LIST          * (all on by default), name, -name (default *)
  --leader-elect[=BOOL]       run only while holding the kube-system/kube-controller-manager Lease
                              (default true)
  --feature-gates k=v,...     Kubernetes v1.27 feature gates the controllers read
  --cluster-signing-cert-file FILE, --cluster-signing-key-file FILE
                              the CA csrsigning issues certificates with (without them it does not run)
  --service-account-private-key-file FILE
                              PEM key the serviceaccount-token controller signs legacy tokens with
                              (without it that controller does not run)
  --root-ca-file FILE         the CA put in token Secrets' ca.crt (default: the kubeconfig's CA)
  -v N                        log verbosity (default 0)
${nodeIpamUsage}`;

/** `{ [key]: value }` when the value is given (exactOptionalPropertyTypes). */
function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
}

export const nodesUsage = `Usage: nanokube nodes --kubeconfig FILE [flags]

Flags:
  --kubeconfig FILE           how to reach the API server (required)
  --context NAME              kubeconfig context (default: its current-context)
  --nodes N                   simulated nodes to register (default 1)
  --node-capacity k=v,...     their capacity, e.g. cpu=4,memory=16Gi,pods=110
  --node-labels k=v,...       labels every one carries
  --node-ip IP[,IP]           the first one's InternalIP, or a dual-stack pair (IPv4 and IPv6, the
                              primary first); node i gets each address + i (default 172.18.0.2)
  --cluster-dns IP            the cluster DNS address the kubelets give ClusterFirst pods; the
                              nodes answer DNS there and keep kube-system/kube-dns at it
                              (default none: such pods' resolv.conf is unknown)
  --scheduler[=BOOL]          also run the scheduler (default true)
  -v N                        log verbosity (default 0)
`;

interface Parsed {
  readonly values: Map<string, string>;
}

/** `--name value`, `--name=value`, and bare boolean `--name`. */
export function parseFlags(
  args: readonly string[],
  known: ReadonlySet<string>,
  booleans: ReadonlySet<string>,
): Parsed {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = (eq > 0 ? arg.slice(0, eq) : arg).replace(/^--?/, '');
    if (!arg.startsWith('-') || !known.has(name)) throw new FlagError(`unknown flag: ${arg}`);
    if (eq > 0) values.set(name, arg.slice(eq + 1));
    else if (booleans.has(name)) values.set(name, 'true');
    else {
      const v = args[++i];
      if (v === undefined) throw new FlagError(`flag needs an argument: ${arg}`);
      values.set(name, v);
    }
  }
  return { values };
}

export function bool(v: string | undefined, name: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new FlagError(
    `invalid argument "${v}" for "--${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`,
  );
}

export function waitForSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`nanokube: ${signal} received, shutting down\n`);
    void stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

export function controllerManagerCommand(args: readonly string[]): void {
  const { values } = parseFlags(
    args,
    new Set([
      'kubeconfig',
      'context',
      'controllers',
      'leader-elect',
      'cluster-signing-cert-file',
      'cluster-signing-key-file',
      'service-account-private-key-file',
      'root-ca-file',
      'feature-gates',
      'v',
      ...nodeIpamFlagNames,
    ]),
    new Set(['leader-elect', 'allocate-node-cidrs']),
  );
  const kubeconfig = values.get('kubeconfig');
  if (kubeconfig === undefined) throw new FlagError(`--kubeconfig is required\n\n${controllerManagerUsage}`);
  const context = values.get('context');
  const credentials = credentialsFromKubeconfig(kubeconfig, context);
  const selection = parseControllers(values.get('controllers') ?? '*');
  const log = createLogger({ verbosity: Number(values.get('v') ?? '0') });
  if (selection.unavailable.length > 0) {
    log.v(1, `controllers not built yet (not running): ${selection.unavailable.join(', ')}`);
  }
  const certFile = values.get('cluster-signing-cert-file');
  const keyFile = values.get('cluster-signing-key-file');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new FlagError('--cluster-signing-cert-file and --cluster-signing-key-file come together');
  }
  const nodeIpam = nodeIpamOf({
    ...optional('allocateNodeCIDRs', values.get('allocate-node-cidrs')),
    ...optional('clusterCIDR', values.get('cluster-cidr')),
    ...optional('nodeCIDRMaskSize', values.get('node-cidr-mask-size')),
    ...optional('nodeCIDRMaskSizeIPv4', values.get('node-cidr-mask-size-ipv4')),
    ...optional('nodeCIDRMaskSizeIPv6', values.get('node-cidr-mask-size-ipv6')),
    ...optional('serviceClusterIPRange', values.get('service-cluster-ip-range')),
  });
  const manager = runControllerManager({
    credentials,
    controllers: selection.enabled,
    log,
    ...(nodeIpam !== undefined ? { nodeIpam } : {}),
    ...(values.get('feature-gates') !== undefined
      ? { featureGates: FeatureGates.parse(values.get('feature-gates') ?? '') }
      : {}),
    ...(values.get('service-account-private-key-file') !== undefined
      ? {
          serviceAccountPrivateKeyPem: readFileSync(
            values.get('service-account-private-key-file') ?? '',
            'utf8',
          ),
        }
      : {}),
    ...(values.get('root-ca-file') !== undefined
      ? { rootCaPem: readFileSync(values.get('root-ca-file') ?? '', 'utf8') }
      : {}),
    ...(certFile !== undefined && keyFile !== undefined
      ? { signing: { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') } }
      : {}),
    leaderElection: bool(values.get('leader-elect'), 'leader-elect', true)
      ? { identity: `${hostname()}_${randomUUID()}` }
      : false,
  });
  process.stdout.write(
    `nanokube controller-manager: running ${[...selection.enabled].sort().join(', ')} against ${credentials.server}\n`,
  );
  waitForSignal(() => manager.stop());
}

export function nodesCommand(args: readonly string[]): void {
  const { values } = parseFlags(
    args,
    new Set([
      'kubeconfig',
      'context',
      'nodes',
      'node-capacity',
      'node-labels',
      'node-ip',
      'cluster-dns',
      'scheduler',
      'v',
    ]),
    new Set(['scheduler']),
  );
  const kubeconfig = values.get('kubeconfig');
  if (kubeconfig === undefined) throw new FlagError(`--kubeconfig is required\n\n${nodesUsage}`);
  const countText = values.get('nodes') ?? '1';
  if (!/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > 100_000) {
    throw new FlagError(`invalid argument "${countText}" for "--nodes" flag: a number from 1 to 100000`);
  }
  const count = Number(countText);
  const template = nodeTemplateOf(values.get('node-capacity'), values.get('node-labels'));
  const nodeIPs = nodeIPsOf(values.get('node-ip'), count);
  const clusterDNS = values.get('cluster-dns');
  if (clusterDNS !== undefined && isIP(clusterDNS) === 0) {
    throw new FlagError(`invalid argument "${clusterDNS}" for "--cluster-dns" flag: not an IP address`);
  }
  // The flags are checked before the kubeconfig is read.
  const credentials = credentialsFromKubeconfig(kubeconfig, values.get('context'));
  const log = createLogger({ verbosity: Number(values.get('v') ?? '0') });
  const client = new RestClient(credentials);
  const abort = new AbortController();
  const informers = new SharedInformerFactory({ client, transform: stripManagedFields });
  const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  const running: Promise<unknown>[] = [
    new SimulatedNodes({
      client,
      informers,
      count,
      podCIDRs: podCIDRsFor(nodeIPs, podCIDRFor(count), ipv6PodCIDRFor(count)),
      ...(nodeIPs !== undefined ? { nodeIPs } : {}),
      ...(template !== undefined ? { nodeTemplate: template } : {}),
      ...(clusterDNS !== undefined ? { clusterDNS: [clusterDNS] } : {}),
      onError: (err) => log.v(2, `simulated nodes: ${message(err)}`),
    }).run(abort.signal),
  ];
  if (bool(values.get('scheduler'), 'scheduler', true)) {
    running.push(
      new Scheduler({ client, informers, onError: (err) => log.v(2, `scheduler: ${message(err)}`) }).run(
        abort.signal,
      ),
    );
  }
  informers.start(abort.signal);
  process.stdout.write(`nanokube nodes: ${count} simulated node(s) against ${credentials.server}\n`);
  waitForSignal(async () => {
    abort.abort();
    await Promise.allSettled(running);
    await informers.stopped();
    client.close();
  });
}
