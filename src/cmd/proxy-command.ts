/**
 * `nanokube proxy`: kube-proxy's iptables mode for one node, against any API server through a
 * kubeconfig. `--dry-run` syncs once and prints the full iptables-restore input it would write,
 * then exits; `--netns NAME` runs the iptables and conntrack tools in a network namespace.
 */
import type { Server } from 'node:http';
import { SharedInformerFactory } from '../client/informer-factory.js';
import { stripManagedFields } from '../client/shared-informer.js';
import { RestClient } from '../client/rest-client.js';
import { ConntrackRunner } from '../proxy/conntrack.js';
import { combinedHealth } from '../proxy/combined-health.js';
import {
  NodePortAddresses,
  interfaceAddresses,
  invalidNodePortAddress,
} from '../proxy/node-port-addresses.js';
import { cidrOfFamily } from '../proxy/service-port.js';
import { ensureSysctl, routeLocalnet } from '../proxy/sysctl.js';
import type { IpFamily } from '../proxy/service-port.js';
import { IptablesRunner } from '../proxy/iptables/runner.js';
import { ProxyMetrics } from '../proxy/metrics.js';
import { Proxier } from '../proxy/proxier.js';
import type { IptablesBackend } from '../proxy/proxier.js';
import { healthServer, metricsServer, splitHostPort } from '../proxy/servers.js';
import { ServiceHealthServers } from '../proxy/service-health.js';
import { GoDurationError, parseGoDuration } from '../util/go-duration.js';
import { createLogger } from '../util/log.js';
import { bool, parseFlags, waitForSignal } from './components.js';
import { credentialsFromKubeconfig } from './kubeconfig-credentials.js';
import { FlagError } from './serve/flags.js';

export const proxyUsage = `Usage: nanokube proxy --kubeconfig FILE --node-name NAME [flags]

Flags:
  --kubeconfig FILE                   how to reach the API server (required)
  --context NAME                      kubeconfig context (default: its current-context)
  --node-name NAME                    the node this proxy serves (required): its endpoints are
                                      local, its zone selects topology hints
  --cluster-cidr CIDR[,CIDR]          pod addresses (one per IP family); traffic to a cluster IP
                                      from elsewhere is masqueraded (default none: no such rule)
  --nodeport-addresses CIDR[,CIDR]    node ports answer only on the node's addresses in these
                                      CIDRs (default: every local address)
  --masquerade-all[=BOOL]             masquerade all traffic to cluster IPs (default false)
  --iptables-masquerade-bit N         the fwmark bit for SNAT, 0..31 (default 14)
  --iptables-sync-period D            how often to look for the canary chain (a full sync
                                      when iptables were flushed); the retry delay after a
                                      failed sync (default 30s)
  --iptables-min-sync-period D        syncs at most this often (default 1s)
  --iptables-localhost-nodeports[=BOOL]
                                      node ports answer on 127.0.0.1 too (default true)
  --healthz-bind-address HOST:PORT    /healthz (default 0.0.0.0:10256; empty: off)
  --metrics-bind-address HOST:PORT    /metrics (default 127.0.0.1:10249; empty: off)
  --netns NAME                        run iptables in this network namespace (the health check
                                      node ports of ETP Local load balancers are served in the
                                      proxy's own, on 0.0.0.0)
  --dry-run                           sync once, print the iptables-restore input, exit
  -v N                                log verbosity (default 0)
`;

function duration(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  try {
    const ms = parseGoDuration(v);
    if (ms > 0) return ms;
  } catch (err) {
    if (!(err instanceof GoDurationError)) throw err;
    throw new FlagError(`invalid argument "${v}" for "--${name}" flag: ${err.message}`);
  }
  throw new FlagError(`invalid argument "${v}" for "--${name}" flag: must be greater than 0`);
}

/** What the dry run writes: nothing exists yet, so the one sync is full and complete. */
class PrintingBackend implements IptablesBackend {
  text = '';
  restore(text: string): Promise<void> {
    this.text = text;
    return Promise.resolve();
  }
  natChains(): Promise<Set<string>> {
    return Promise.resolve(new Set());
  }
  ensureJumps(): Promise<void> {
    return Promise.resolve();
  }
}

function listen(server: Server, address: string, flag: string): Promise<void> {
  const hp = splitHostPort(address);
  if (hp === undefined)
    throw new FlagError(`invalid argument "${address}" for "--${flag}" flag: want HOST:PORT`);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(hp.port, hp.host, () => resolve());
  });
}

export async function proxyCommand(args: readonly string[]): Promise<void> {
  const { values } = parseFlags(
    args,
    new Set([
      'kubeconfig',
      'context',
      'node-name',
      'cluster-cidr',
      'masquerade-all',
      'iptables-masquerade-bit',
      'iptables-sync-period',
      'iptables-min-sync-period',
      'iptables-localhost-nodeports',
      'healthz-bind-address',
      'metrics-bind-address',
      'nodeport-addresses',
      'netns',
      'dry-run',
      'v',
    ]),
    new Set(['masquerade-all', 'iptables-localhost-nodeports', 'dry-run']),
  );
  const kubeconfig = values.get('kubeconfig');
  if (kubeconfig === undefined) throw new FlagError(`--kubeconfig is required\n\n${proxyUsage}`);
  const nodeName = values.get('node-name');
  if (nodeName === undefined || nodeName === '')
    throw new FlagError(`--node-name is required\n\n${proxyUsage}`);
  const bitText = values.get('iptables-masquerade-bit') ?? '14';
  if (!/^\d+$/.test(bitText) || Number(bitText) > 31) {
    throw new FlagError(
      `invalid argument "${bitText}" for "--iptables-masquerade-bit" flag: must be within 0..31`,
    );
  }
  // Go's %#08x: 0x and eight hex digits.
  const mark = `0x${(2 ** Number(bitText)).toString(16).padStart(8, '0')}`;
  const syncPeriodMs = duration(values.get('iptables-sync-period'), 'iptables-sync-period', 30_000);
  const minSyncPeriodMs = duration(values.get('iptables-min-sync-period'), 'iptables-min-sync-period', 1000);
  const dryRun = bool(values.get('dry-run'), 'dry-run', false);
  const clusterCIDRs = (values.get('cluster-cidr') ?? '').split(',').filter((c) => c !== '');
  const npaText = values.get('nodeport-addresses') ?? '';
  const npaCIDRs = npaText
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const npaError = invalidNodePortAddress(npaCIDRs);
  if (npaError !== undefined)
    throw new FlagError(`invalid argument "${npaText}" for "--nodeport-addresses" flag: ${npaError}`);
  const localhostNodePorts = bool(
    values.get('iptables-localhost-nodeports'),
    'iptables-localhost-nodeports',
    true,
  );
  const masqueradeAll = bool(values.get('masquerade-all'), 'masquerade-all', false);
  const netns = values.get('netns');
  const credentials = credentialsFromKubeconfig(kubeconfig, values.get('context'));
  const log = createLogger({ verbosity: Number(values.get('v') ?? '0') });
  const client = new RestClient(credentials);
  const abort = new AbortController();
  const informers = new SharedInformerFactory({ client, transform: stripManagedFields });
  const metrics = new ProxyMetrics();
  const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  // Like kube-proxy: a proxy for each IP family whose iptables work (dual-stack), else IPv4's.
  const families: IpFamily[] = dryRun ? ['IPv4', 'IPv6'] : await workingFamilies(netns, abort.signal);
  const listAddresses = (signal: AbortSignal): Promise<string[]> => interfaceAddresses(netns, signal);
  const perFamily = await Promise.all(
    families.map(async (family) => {
      const addresses = new NodePortAddresses(family, npaCIDRs);
      const runner = new IptablesRunner({
        ...(netns !== undefined ? { netns } : {}),
        ipv6: family === 'IPv6',
      });
      const printing = new PrintingBackend();
      // Health check node ports listen on the selected node addresses (in the proxy's own
      // namespace: with --netns, on every address).
      const hosts =
        addresses.matchAll || netns !== undefined
          ? [family === 'IPv4' ? '0.0.0.0' : '::']
          : addresses.nodeIPs(await listAddresses(abort.signal));
      const serviceHealth = dryRun
        ? undefined
        : new ServiceHealthServers({ hosts, onError: (err) => log.error(`proxy: ${message(err)}`) });
      const nodePortsOnLocalhost = family === 'IPv4' && localhostNodePorts && addresses.containsIPv4Loopback;
      const clusterCIDR = clusterCIDRs.find((c) => cidrOfFamily(c, family));
      const proxier = new Proxier({
        informers,
        nodeName,
        family,
        backend: dryRun ? printing : runner,
        ...(dryRun ? {} : { canary: runner, conntrack: new ConntrackRunner({ netns }) }),
        metrics,
        syncPeriodMs,
        minSyncPeriodMs,
        rules: {
          masqueradeMark: mark,
          masqueradeAll,
          // Localhost node ports only while --nodeport-addresses holds 127.0.0.0 (IPv4 only).
          localhostNodePorts: nodePortsOnLocalhost,
          ...(clusterCIDR !== undefined ? { clusterCIDR } : {}),
        },
        nodePortAddresses: { addresses, interfaceAddresses: listAddresses },
        ...(serviceHealth !== undefined ? { serviceHealth } : {}),
        onError: (err) => log.error(`proxy: ${family}: ${message(err)}`),
        onSync: (r) =>
          log.v(
            2,
            `proxy: ${family} ${r.full ? 'full' : 'partial'} sync of ${r.changedServices} changed Services: ${r.bytes} bytes in ${r.ms.toFixed(1)} ms`,
          ),
      });
      return { family, proxier, printing, serviceHealth, localhostNodePorts: nodePortsOnLocalhost };
    }),
  );
  if (!dryRun && perFamily.some((f) => f.localhostNodePorts)) {
    // Node ports on 127.0.0.1 need the kernel to route DNATed loopback packets (IPv4 only).
    log.info(
      'Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses',
    );
    await ensureSysctl(routeLocalnet, 1, { netns, signal: abort.signal });
  }
  if (dryRun) {
    const started = perFamily.map((f) => f.proxier.start());
    informers.start(abort.signal);
    try {
      if (!(await Promise.all(started)).every(Boolean))
        throw new Error('the informers stopped before they synced');
      for (const f of perFamily) {
        const r = await f.proxier.sync(abort.signal, true);
        // The IPv6 rules only when some Service has an IPv6 cluster IP.
        if (f.family === 'IPv4') process.stdout.write(f.printing.text);
        else if (r.servicePorts > 0)
          process.stdout.write(`# ip6tables-restore input (IPv6)\n${f.printing.text}`);
      }
    } finally {
      abort.abort();
      await informers.stopped();
      client.close();
    }
    return;
  }
  const servers: Server[] = [];
  const healthz = values.get('healthz-bind-address') ?? '0.0.0.0:10256';
  if (healthz !== '') {
    const s = healthServer(combinedHealth(perFamily.map((f) => f.proxier)));
    await listen(s, healthz, 'healthz-bind-address');
    servers.push(s);
  }
  const metricsAddress = values.get('metrics-bind-address') ?? '127.0.0.1:10249';
  if (metricsAddress !== '') {
    const s = metricsServer(metrics);
    await listen(s, metricsAddress, 'metrics-bind-address');
    servers.push(s);
  }
  const running = Promise.all(perFamily.map((f) => f.proxier.run(abort.signal)));
  informers.start(abort.signal);
  process.stdout.write(
    `nanokube proxy: node ${nodeName} (${families.join(', ')}) against ${credentials.server}${netns === undefined ? '' : ` in netns ${netns}`}\n`,
  );
  waitForSignal(async () => {
    abort.abort();
    await running;
    await informers.stopped();
    for (const s of servers) s.close();
    for (const f of perFamily) f.serviceHealth?.close();
    client.close();
  });
}

/** The IP families whose iptables tools work here (in `netns`): both, or the one that does. */
async function workingFamilies(netns: string | undefined, signal: AbortSignal): Promise<IpFamily[]> {
  const works = await Promise.all(
    (['IPv4', 'IPv6'] as const).map((family) =>
      new IptablesRunner({ ...(netns !== undefined ? { netns } : {}), ipv6: family === 'IPv6' })
        .present(signal)
        .then((ok) => (ok ? [family] : [])),
    ),
  );
  const found = works.flat();
  return found.length > 0 ? found : ['IPv4'];
}
