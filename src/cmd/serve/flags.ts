/** `nanokube serve` flags (names kept stable; more will come). */
import { isIP } from 'node:net';
import { parseControllers } from '../controller-manager/selection.js';
import { nodeTemplateOf } from '../node-flags.js';
import { nodeIPsOf } from '../node-ip.js';
import { nodeIpamOf } from '../node-ipam-flags.js';
import { networkInterfaces } from 'node:os';
import { parseCIDRSloppy } from '../../apis/networking/v1/validation/cidr.js';
import { FeatureGates } from '../../machinery/features.js';
import { parseIPSloppy } from '../../machinery/validation/ip.js';
import { parseRuntimeConfig } from './runtime-config.js';
import { parsePluginList, validateAdmissionPluginFlags } from '../../admission/options.js';
import { AuthorizationModeError, parseAuthorizationModes } from './authorization-modes.js';
import type { AuthorizationMode } from './authorization-modes.js';
import { parsePortRange } from '../../allocators/port-range.js';
import type { ServerOptions } from './start.js';
import { auditFlagNames, auditFlagsOf, auditUsage } from './audit-flags.js';
import type { AuditFlags } from './audit-flags.js';
import { validateCorsAllowedOrigins } from '../../apiserver/filters/cors.js';
import type { ServiceAccountTokenFlags } from '../serviceaccount-tokens.js';
import { parseGoDuration } from '../../util/go-duration.js';

import { FlagError } from './flag-error.js';
import {
  TlsOptionError,
  tlsCipherSuites as tlsCipherSuitesOf,
  tlsMinVersion as tlsMinVersionOf,
} from '../../apiserver/tls-options.js';
import type { StorageMediaType } from './storage-media-type.js';
import { etcdFlagNames, etcdFlagsOf, etcdUsage } from './etcd-flags.js';
import { parseWatchCacheSizes } from './watch-cache-sizes.js';

export { FlagError };

export const serveUsage = `Usage: nanokube serve [flags]

Flags:
  --data-dir DIR              where state, certificates and the kubeconfig live (default ./.nanokube)
  --bind-address ADDR         address to listen on (default 127.0.0.1)
  --secure-port N             HTTPS port; 0 picks a free one and prints it (default 6443)
  --write-kubeconfig FILE     kubeconfig to write (default DIR/kubeconfig)
  --storage sqlite|memory|etcd
                              storage backend (default sqlite); etcd: several servers can share
                              one etcd cluster (--etcd-servers)
${etcdUsage}  --storage-media-type TYPE    how objects are stored: application/json (default) or
                              application/vnd.kubernetes.protobuf (built-in kinds; custom
                              resources stay JSON); either form is read whatever this says
  --sqlite-synchronous MODE   SQLite synchronous setting: FULL (default, durable), NORMAL, OFF
  --event-ttl DURATION        how long Events are kept after they are written (default 1h0m0s)
  --watch-cache[=BOOL]        keep a watch cache per resource (default true)
  --watch-cache-sizes R#N,... resource[.group]#size; 0 turns that built-in resource's watch cache
                              off, any other size keeps it (default events#0,events.events.k8s.io#0)
  --feature-gates k=v,...     Kubernetes v1.27 feature gates
  --runtime-config k=v,...    group-versions to serve, e.g. certificates.k8s.io/v1alpha1=true, api/alpha=true
  --anonymous-auth[=BOOL]     requests without credentials are system:anonymous (default false:
                              they get 401; kube-apiserver's default is true)
  --token-auth-file FILE      static bearer tokens, CSV: token,user,uid[,"group1,group2"]
  --service-account-issuer URL
                              iss of issued service-account tokens; repeat to accept more issuers
                              (default https://kubernetes.default.svc.cluster.local)
  --api-audiences A,B         audiences tokens must be meant for (default: the issuers)
  --service-account-signing-key-file FILE
                              PEM private key tokens are signed with (default DIR/pki/sa.key,
                              ECDSA P-256, made on first start)
  --service-account-key-file FILE
                              PEM public keys tokens may also be signed with (repeatable)
  --service-account-max-token-expiration DURATION
                              longest TokenRequest expiry granted, e.g. 48h (default: none)
  --service-account-extend-token-expiration[=BOOL]
                              pod-bound tokens asking 3607 s live a year, warned about after
                              the hour (default true)
  --service-account-jwks-uri URL
                              jwks_uri of /.well-known/openid-configuration (default:
                              https://<this server>/openid/v1/jwks)
  --authorization-mode LIST   authorizers after system:masters, in order: RBAC, Node,
                              AlwaysAllow, AlwaysDeny (default RBAC; ABAC and Webhook refuse to
                              start)
  --enable-priority-and-fairness[=BOOL]
                              API Priority and Fairness limits requests (with the
                              APIPriorityAndFairness feature gate, on by default); false: the
                              max-in-flight limits instead
  --max-requests-inflight N   read-only requests in flight (default 400; 0: no limit) and, with
  --max-mutating-requests-inflight N
                              mutating ones (default 200), without APF; with APF their sum is
                              the server's concurrency limit shared by the priority levels
  --service-cluster-ip-range CIDR
                              Service IP range; its first address is the \`kubernetes\` Service's
                              cluster IP (default 10.96.0.0/12)
  --service-node-port-range RANGE
                              ports NodePort and LoadBalancer Services get node ports from, as
                              a-b, a+n or a single port (default 30000-32767)
  --advertise-address IP      address published in the \`kubernetes\` Endpoints (default: the bind
                              address when it is a specific non-loopback one, else the first
                              non-loopback IPv4 address of this machine; with none, the Service
                              is kept without Endpoints)
  --controllers LIST          controllers to run in-process, as kube-controller-manager's flag:
                              * (all on by default), name, -name (default *)
  --nodes N                   simulated nodes (with the scheduler) run in-process; 0 runs
                              neither (default 1)
  --components-thread[=BOOL]  run the controllers, scheduler and simulated nodes on a worker
                              thread of their own, another core than the API server's (default:
                              true with --nodes 100 or more; the thread costs ~50 MiB and ~0.15 s
                              of start-up, worth it only for a busy cluster)
  --net-thread[=BOOL]         terminate TLS and HTTP on a worker thread of their own: handshakes
                              and HTTP/2 framing on another core than the request chain, so a
                              busy server still accepts connections at once (default false; the
                              thread costs ~12 MiB)
  --node-capacity k=v,...     the simulated nodes' capacity, e.g. cpu=4,memory=16Gi,pods=110
                              (default cpu=32,memory=256Gi,pods=110,ephemeral-storage=1Ti)
  --node-labels k=v,...       labels every simulated node carries
  --proxy-mode MODE           iptables: every simulated node runs kube-proxy's iptables mode
                              in-process, its rules kept in memory, its health (10256), metrics
                              (10249) and health check node ports reached through
                              nodes/NAME:PORT/proxy; none: no proxy (default none)
  --node-ip IP[,IP]           the first simulated node's InternalIP, or a dual-stack pair (IPv4
                              and IPv6, the primary first); node i gets each address + i. Pod
                              CIDRs follow the families (10.244.0.0/16, fd00:10:244::/56)
                              (default 172.18.0.2)
  --allocate-node-cidrs[=BOOL] the nodeipam controller assigns spec.podCIDR(s) to nodes without
                              one, from --cluster-cidr CIDR[,CIDR] in subnets of
                              --node-cidr-mask-size N (or -ipv4 N, default 24; -ipv6 N, default 64)
                              (default false, as kube-controller-manager)
${auditUsage}  --cors-allowed-origins LIST  origins (comma-separated regular expressions, each anchored: '^'
                              or '//' before the host, '$' or ':' after it) that get CORS headers
  --faults FILE               inject faults into matching requests (YAML: faults: [rules]; see the
                              README); the file is read again whenever it changes
  --profiling[=BOOL]          serve CPU and heap profiles on the debug socket (default true)
  --debug-socket-path PATH    unix socket (mode 0600, no authentication) for /debug/pprof/profile
                              (V8 .cpuprofile), /debug/pprof/heap and PUT /debug/flags/v (log
                              verbosity); --profiling-path is the same
                              flag. Profiles are never served on the TCP port
  --encryption-provider-config FILE
                              encryption at rest: an apiserver.config.k8s.io/v1
                              EncryptionConfiguration (YAML or JSON) with aescbc, aesgcm,
                              secretbox, identity and kms (apiVersion v2) providers
  --enable-admission-plugins LIST
                              admission plugins to run beyond the v1.27 defaults (NodeRestriction,
                              AlwaysPullImages, DenyServiceExternalIPs, PodNodeSelector,
                              EventRateLimit, ...); they run in upstream's order, not this list's
  --disable-admission-plugins LIST
                              default admission plugins not to run
  --admission-control-config-file FILE
                              an apiserver.config.k8s.io/v1 AdmissionConfiguration with the
                              plugins' configuration (PodSecurity, ResourceQuota, EventRateLimit...)
  --tls-min-version VERSION   minimum TLS version served: VersionTLS10, VersionTLS11,
                              VersionTLS12 (default), VersionTLS13
  --tls-cipher-suites LIST    TLS 1.0-1.2 cipher suites served, by Go's names (e.g.
                              TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256); default: Node's. TLS 1.3
                              suites are always on, as in Go; RC4 and 3DES are not available
  --http2-max-streams-per-connection N
                              streams one HTTP/2 connection may have open, and requests it may
                              have served at once (default 0: 100, as kube-apiserver v1.27.7+)
  -v N                        log verbosity (default 0)
`;

/** kubeadm's (not kube-apiserver's 10.0.0.0/24) default range. */
export const defaultServiceClusterIPRange = '10.96.0.0/12';

/** Go's net.IP String() of 4 or 16 bytes (IPv6 through the URL parser, which compresses alike). */
function formatIP(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i]! << 8) | b[i + 1]!).toString(16));
  return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}

function isIPv4(b: Uint8Array): boolean {
  return b.length === 4 || (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff);
}

/**
 * The `kubernetes` Service's cluster IP: the first address after the network address of the
 * (primary) range, as upstream's GetIndexedIP(range, 1); undefined when the range is malformed.
 */
export function firstServiceIP(range: string): string | undefined {
  return indexedServiceIP(range, 1);
}

/**
 * The cluster DNS Service's address: the tenth after the network address of the (primary) range,
 * as kubeadm's GetDNSIP; undefined when the range is malformed or too small.
 */
export function dnsServiceIP(range: string): string | undefined {
  return indexedServiceIP(range, 10);
}

/** The `index`th address after the network address of the primary range (below its last). */
function indexedServiceIP(range: string, index: number): string | undefined {
  const net = parseCIDRSloppy(range.split(',')[0]!.trim());
  const hostBits = net === undefined ? 0 : net.bits - net.ones;
  if (net === undefined || hostBits < 2 || (hostBits < 31 && index >= 2 ** hostBits - 1)) return undefined;
  const ip = Uint8Array.from(net.ip);
  let carry = index;
  for (let i = ip.length - 1; i >= 0 && carry > 0; i--) {
    const sum = ip[i]! + carry;
    ip[i] = sum & 0xff;
    carry = sum >> 8;
  }
  return formatIP(ip);
}

function usableIPv4(address: string): boolean {
  const b = parseIPSloppy(address);
  if (b === undefined || !isIPv4(b)) return false;
  const v4 = b.slice(-4);
  return !(v4[0] === 127 || v4.every((x) => x === 0) || (v4[0] === 169 && v4[1] === 254));
}

/**
 * The default --advertise-address: the bind address when it names one non-loopback IPv4
 * interface, else the first non-internal IPv4 address of os.networkInterfaces() (upstream asks
 * the default route's interface). Undefined when the machine has none: loopback addresses are
 * invalid in Endpoints, so the server then keeps the Service without Endpoints.
 */
export function defaultAdvertiseAddress(bindAddress: string): string | undefined {
  if (usableIPv4(bindAddress)) return bindAddress;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family === 'IPv4' && !a.internal && usableIPv4(a.address)) return a.address;
    }
  }
  return undefined;
}

/**
 * The rest of upstream's --service-cluster-ip-range checks (cmd/kube-apiserver/app/options/
 * validation.go, v1.27): at most two CIDRs of different families, each at most 2^20 addresses
 * unless MultiCIDRServiceAllocator is on (its allocator has no bitmap).
 */
function checkServiceClusterIPRange(value: string, multiCIDR: boolean): void {
  const cidrs = value.split(',').map((c) => c.trim());
  if (cidrs.length > 2) {
    throw new FlagError('--service-cluster-ip-range must not contain more than two entries');
  }
  const nets = cidrs.map((c) => {
    const net = parseCIDRSloppy(c);
    if (net === undefined) {
      throw new FlagError(
        `invalid argument "${value}" for "--service-cluster-ip-range" flag: not a valid CIDR`,
      );
    }
    return net;
  });
  if (nets.length === 2 && nets[0]!.bits === nets[1]!.bits) {
    throw new FlagError(
      '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
    );
  }
  if (multiCIDR) return;
  const maxCIDRBits = 20;
  nets.forEach((net, i) => {
    if (net.bits - net.ones > maxCIDRBits) {
      const name = i === 0 ? '--service-cluster-ip-range' : '--secondary-service-cluster-ip-range';
      throw new FlagError(
        `specified ${name} is too large; for ${net.bits}-bit addresses, the mask must be >= ${net.bits - maxCIDRBits}`,
      );
    }
  });
}

/**
 * kube-apiserver's service-account option checks (v1.27 BuiltInAuthenticationOptions.Validate):
 * issuers non-empty, distinct, valid URLs when they hold a ':'; a maximum expiry between an hour
 * and 2^32 seconds; an https jwks_uri.
 */
function checkServiceAccountFlags(f: ServiceAccountTokenFlags): void {
  const seen = new Set<string>();
  for (const issuer of f.issuers ?? []) {
    if (issuer.includes(':') && !URL.canParse(issuer)) {
      throw new FlagError(
        `service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`,
      );
    }
    if (issuer === '') throw new FlagError('service-account-issuer should not be an empty string');
    if (seen.has(issuer))
      throw new FlagError(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
    seen.add(issuer);
  }
  const max = f.maxTokenExpirationSeconds;
  if (max !== undefined && max !== 0 && (max < 3600 || max > 2 ** 32)) {
    throw new FlagError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  if (f.jwksURI !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(f.jwksURI);
    } catch {
      u = undefined;
    }
    if (u === undefined || u.protocol !== 'https:') {
      throw new FlagError('service-account-jwks-uri requires https scheme, parsed as: ' + f.jwksURI);
    }
  }
}

/** From this many simulated nodes on, `--components-thread` defaults to true. */
export const componentsThreadNodes = 100;

export function parseServeFlags(args: readonly string[]): ServerOptions {
  let dataDir = './.nanokube';
  let bindAddress = '127.0.0.1';
  let securePort = 6443;
  let kubeconfigPath: string | undefined;
  let storage: 'sqlite' | 'memory' | 'etcd' = 'sqlite';
  let storageMediaType: StorageMediaType | undefined;
  const etcdValues = new Map<string, string>();
  let featureGates: Record<string, boolean> = {};
  let verbosity = 0;
  let synchronous: 'FULL' | 'NORMAL' | 'OFF' | undefined;
  let anonymousAuth = false;
  let componentsThread: boolean | undefined;
  let netThread = false;
  let tokenAuthFile: string | undefined;
  const issuers: string[] = [];
  const keyFiles: string[] = [];
  let apiAudiences: string[] | undefined;
  let signingKeyFile: string | undefined;
  let maxTokenExpirationSeconds: number | undefined;
  let eventTtlSeconds: number | undefined;
  let watchCache: boolean | undefined;
  let watchCacheSizes: string[] | undefined;
  let extendTokenExpiration: boolean | undefined;
  let jwksURI: string | undefined;
  let authorizationModes: AuthorizationMode[] | undefined;
  let enablePriorityAndFairness: boolean | undefined;
  const inflight: { maxRequestsInflight?: number; maxMutatingRequestsInflight?: number } = {};
  let runtimeConfig = '';
  let serviceClusterIPRange: string | undefined;
  let serviceNodePortRange: string | undefined;
  let advertiseAddress: string | undefined;
  let controllers: string | undefined;
  let nodes: number | undefined;
  let nodeCapacity: string | undefined;
  let nodeLabels: string | undefined;
  let nodeIP: string | undefined;
  let proxyMode: 'iptables' | undefined;
  let encryptionConfig: string | undefined;
  let encryptionReload = false;
  const ipam: Record<string, string> = {};
  const audit = new Map<string, string>();
  let corsAllowedOrigins: string[] | undefined;
  let faultsFile: string | undefined;
  let profiling = true;
  let debugSocketPath: string | undefined;
  let enableAdmission: string[] | undefined;
  let disableAdmission: string[] | undefined;
  let admissionConfigFile: string | undefined;
  let tlsMinVersion: string | undefined;
  let tlsCipherSuites: string[] | undefined;
  let http2MaxStreams: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('-') ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0 && arg.startsWith('-')) return arg.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new FlagError(`flag needs an argument: ${name}`);
      return v;
    };
    /** A boolean flag (pflag's): bare means true; only --flag=VALUE takes a value. */
    const bool = (): boolean => {
      const v = eq > 0 ? arg.slice(eq + 1) : 'true';
      if (v !== 'true' && v !== 'false') {
        throw new FlagError(
          `invalid argument "${v}" for "--${name.replace(/^--?/, '')}" flag: must be true or false`,
        );
      }
      return v === 'true';
    };
    switch (name.replace(/^--?/, '')) {
      case 'data-dir':
        dataDir = value();
        break;
      case 'bind-address': {
        // An IP, as upstream's flag (a host name would be resolved at listen time).
        const v = value();
        if (isIP(v) === 0)
          throw new FlagError(
            `invalid argument "${v}" for "--bind-address" flag: failed to parse IP: "${v}"`,
          );
        bindAddress = v;
        break;
      }
      case 'secure-port': {
        const v = value();
        securePort = Number(v);
        if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) {
          throw new FlagError(`invalid argument "${v}" for "--secure-port" flag`);
        }
        break;
      }
      case 'write-kubeconfig':
        kubeconfigPath = value();
        break;
      case 'storage': {
        const v = value();
        if (v !== 'sqlite' && v !== 'memory' && v !== 'etcd')
          throw new FlagError(`invalid argument "${v}" for "--storage" flag: must be sqlite, memory or etcd`);
        storage = v;
        break;
      }
      case 'storage-media-type': {
        const v = value();
        if (v !== 'application/json' && v !== 'application/vnd.kubernetes.protobuf') {
          throw new FlagError(
            `invalid argument "${v}" for "--storage-media-type" flag: nanokube stores application/json or application/vnd.kubernetes.protobuf`,
          );
        }
        storageMediaType = v;
        break;
      }
      case 'sqlite-synchronous': {
        const v = value().toUpperCase();
        if (v !== 'FULL' && v !== 'NORMAL' && v !== 'OFF') {
          throw new FlagError(
            `invalid argument "${v}" for "--sqlite-synchronous" flag: must be FULL, NORMAL or OFF`,
          );
        }
        synchronous = v;
        break;
      }
      case 'runtime-config': {
        const v = value();
        try {
          parseRuntimeConfig(v);
        } catch (err) {
          throw new FlagError(
            `invalid argument "${v}" for "--runtime-config" flag: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        runtimeConfig = runtimeConfig === '' ? v : `${runtimeConfig},${v}`;
        break;
      }
      case 'feature-gates':
        featureGates = { ...featureGates, ...FeatureGates.parse(value()) };
        break;
      case 'allocate-node-cidrs':
        // A boolean flag: bare means true.
        ipam['allocateNodeCIDRs'] = eq > 0 ? arg.slice(eq + 1) : 'true';
        break;
      case 'cluster-cidr':
        ipam['clusterCIDR'] = value();
        break;
      case 'node-cidr-mask-size':
        ipam['nodeCIDRMaskSize'] = value();
        break;
      case 'node-cidr-mask-size-ipv4':
        ipam['nodeCIDRMaskSizeIPv4'] = value();
        break;
      case 'node-cidr-mask-size-ipv6':
        ipam['nodeCIDRMaskSizeIPv6'] = value();
        break;
      case 'anonymous-auth':
        anonymousAuth = bool();
        break;
      case 'components-thread':
        componentsThread = bool();
        break;
      case 'net-thread':
        netThread = bool();
        break;
      case 'token-auth-file':
        tokenAuthFile = value();
        break;
      case 'service-account-issuer':
        issuers.push(value());
        break;
      case 'api-audiences':
        apiAudiences = value()
          .split(',')
          .map((a) => a.trim())
          .filter((a) => a !== '');
        break;
      case 'service-account-signing-key-file':
        signingKeyFile = value();
        break;
      case 'service-account-key-file':
        keyFiles.push(value());
        break;
      case 'service-account-jwks-uri':
        jwksURI = value();
        break;
      case 'watch-cache':
        watchCache = bool();
        break;
      case 'watch-cache-sizes': {
        // A string slice (pflag): comma-separated, repeated flags add; checked as upstream does.
        const v = value();
        const added = v === '' ? [] : v.split(',');
        parseWatchCacheSizes(added);
        watchCacheSizes = [...(watchCacheSizes ?? []), ...added];
        break;
      }
      case 'event-ttl': {
        const v = value();
        try {
          // Stored as a lease TTL in whole seconds, as the etcd3 store rounds it.
          eventTtlSeconds = Math.ceil(parseGoDuration(v) / 1000);
        } catch (err) {
          throw new FlagError(
            `invalid argument "${v}" for "--event-ttl" flag: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        if (eventTtlSeconds <= 0) throw new FlagError('--event-ttl must be greater than 0');
        break;
      }
      case 'service-account-max-token-expiration': {
        const v = value();
        let ms: number;
        try {
          ms = parseGoDuration(v);
        } catch (err) {
          throw new FlagError(
            `invalid argument "${v}" for "--service-account-max-token-expiration" flag: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        maxTokenExpirationSeconds = Math.floor(ms / 1000);
        break;
      }
      case 'service-account-extend-token-expiration':
        extendTokenExpiration = bool();
        break;
      case 'authorization-mode': {
        try {
          authorizationModes = parseAuthorizationModes(value());
        } catch (err) {
          if (err instanceof AuthorizationModeError) throw new FlagError(err.message);
          throw err;
        }
        break;
      }
      case 'max-requests-inflight':
      case 'max-mutating-requests-inflight': {
        const flag = name.replace(/^--?/, '');
        const v = value();
        if (!/^\d+$/.test(v)) throw new FlagError(`invalid argument "${v}" for "--${flag}" flag`);
        if (flag === 'max-requests-inflight') inflight.maxRequestsInflight = Number(v);
        else inflight.maxMutatingRequestsInflight = Number(v);
        break;
      }
      case 'enable-priority-and-fairness':
        enablePriorityAndFairness = bool();
        break;
      case 'service-cluster-ip-range': {
        const v = value();
        if (firstServiceIP(v) === undefined) {
          throw new FlagError(
            `invalid argument "${v}" for "--service-cluster-ip-range" flag: not a valid CIDR`,
          );
        }
        serviceClusterIPRange = v;
        break;
      }
      case 'service-node-port-range': {
        const v = value();
        if (parsePortRange(v) === undefined) {
          throw new FlagError(
            `invalid argument "${v}" for "--service-node-port-range" flag: unable to parse "${v}" as a port range`,
          );
        }
        serviceNodePortRange = v;
        break;
      }
      case 'advertise-address': {
        const v = value();
        if (parseIPSloppy(v) === undefined) {
          throw new FlagError(
            `invalid argument "${v}" for "--advertise-address" flag: failed to parse IP: "${v}"`,
          );
        }
        advertiseAddress = v;
        break;
      }
      case 'controllers':
        controllers = value();
        parseControllers(controllers);
        break;
      case 'nodes': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 100_000) {
          throw new FlagError(`invalid argument "${v}" for "--nodes" flag: a number from 0 to 100000`);
        }
        nodes = n;
        break;
      }
      case 'node-capacity':
        nodeCapacity = value();
        break;
      case 'node-labels':
        nodeLabels = value();
        break;
      case 'node-ip':
        nodeIP = value();
        break;
      case 'proxy-mode': {
        const v = value();
        if (v === 'ipvs' || v === 'kernelspace') {
          throw new FlagError(
            `invalid argument "${v}" for "--proxy-mode" flag: nanokube's proxy has only the iptables mode`,
          );
        }
        if (v !== 'iptables' && v !== 'none') {
          throw new FlagError(`invalid argument "${v}" for "--proxy-mode" flag: must be iptables or none`);
        }
        proxyMode = v === 'iptables' ? v : undefined;
        break;
      }
      case 'encryption-provider-config':
        encryptionConfig = value();
        break;
      case 'encryption-provider-config-automatic-reload':
        encryptionReload = bool();
        break;
      case 'v':
        verbosity = Number(value());
        break;
      case 'cors-allowed-origins': {
        // A string slice (pflag): comma-separated, repeated flags add.
        const v = value();
        corsAllowedOrigins = [...(corsAllowedOrigins ?? []), ...(v === '' ? [] : v.split(','))];
        break;
      }
      case 'faults':
        faultsFile = value();
        break;
      case 'profiling':
        profiling = bool();
        break;
      case 'debug-socket-path':
      case 'profiling-path':
        debugSocketPath = value();
        break;
      // String slices (pflag): comma-separated, repeated flags add.
      case 'enable-admission-plugins':
        enableAdmission = [...(enableAdmission ?? []), ...parsePluginList(value())];
        break;
      case 'disable-admission-plugins':
        disableAdmission = [...(disableAdmission ?? []), ...parsePluginList(value())];
        break;
      case 'admission-control-config-file':
        admissionConfigFile = value();
        break;
      case 'tls-min-version':
        tlsMinVersion = value();
        checkTls(() => tlsMinVersionOf(tlsMinVersion ?? ''));
        break;
      case 'tls-cipher-suites': {
        // A string slice (pflag): comma-separated, repeated flags add.
        const v = value();
        tlsCipherSuites = [...(tlsCipherSuites ?? []), ...(v === '' ? [] : v.split(','))];
        break;
      }
      case 'http2-max-streams-per-connection':
        http2MaxStreams = goInt(value(), 'http2-max-streams-per-connection');
        break;
      default: {
        const flag = name.replace(/^--?/, '');
        if (etcdFlagNames.has(flag)) {
          etcdValues.set(flag, value());
          break;
        }
        if (!auditFlagNames.has(flag)) throw new FlagError(`unknown flag: ${name}`);
        audit.set(flag, value());
      }
    }
  }
  const etcd = etcdFlagsOf(etcdValues, storage);
  if (tlsCipherSuites !== undefined) {
    const suites = tlsCipherSuites;
    checkTls(() => tlsCipherSuitesOf(suites));
  }
  if (encryptionReload && encryptionConfig === undefined) {
    throw new FlagError(
      '--encryption-provider-config-automatic-reload must be set with --encryption-provider-config',
    );
  }
  const admissionErrors = validateAdmissionPluginFlags({
    ...(enableAdmission !== undefined ? { enable: enableAdmission } : {}),
    ...(disableAdmission !== undefined ? { disable: disableAdmission } : {}),
  });
  if (admissionErrors.length > 0) {
    throw new FlagError(
      admissionErrors.length === 1 ? admissionErrors[0]! : `[${admissionErrors.join(', ')}]`,
    );
  }
  const gates = new FeatureGates(featureGates);
  const auditFlags = ((): AuditFlags => {
    try {
      return auditFlagsOf(audit);
    } catch (err) {
      throw new FlagError(err instanceof Error ? err.message : String(err));
    }
  })();
  const corsErrors = validateCorsAllowedOrigins(corsAllowedOrigins ?? []);
  if (corsErrors.length > 0) {
    throw new FlagError(corsErrors.length === 1 ? corsErrors[0]! : `[${corsErrors.join(', ')}]`);
  }
  if (serviceClusterIPRange !== undefined) {
    checkServiceClusterIPRange(serviceClusterIPRange, gates.enabled('MultiCIDRServiceAllocator'));
  }
  const nodeIpam = nodeIpamOf({
    ...ipam,
    serviceClusterIPRange: serviceClusterIPRange ?? defaultServiceClusterIPRange,
  });
  const nodeTemplate = nodeTemplateOf(nodeCapacity, nodeLabels);
  const nodeIPs = nodeIPsOf(nodeIP, nodes ?? 1);
  if (advertiseAddress !== undefined) {
    const serviceIP = parseIPSloppy(firstServiceIP(serviceClusterIPRange ?? defaultServiceClusterIPRange)!)!;
    if (isIPv4(serviceIP) !== isIPv4(parseIPSloppy(advertiseAddress)!)) {
      throw new FlagError(
        `service IP family "${formatIP(serviceIP)}" must match advertise address family "${advertiseAddress}"`,
      );
    }
  }
  const serviceAccountTokens: ServiceAccountTokenFlags = {
    ...(issuers.length > 0 ? { issuers } : {}),
    ...(apiAudiences !== undefined ? { apiAudiences } : {}),
    ...(signingKeyFile !== undefined ? { signingKeyFile } : {}),
    ...(keyFiles.length > 0 ? { keyFiles } : {}),
    ...(maxTokenExpirationSeconds !== undefined ? { maxTokenExpirationSeconds } : {}),
    ...(extendTokenExpiration !== undefined ? { extendTokenExpiration } : {}),
    ...(jwksURI !== undefined ? { jwksURI } : {}),
  };
  checkServiceAccountFlags(serviceAccountTokens);
  return {
    dataDir,
    bindAddress,
    ...(tokenAuthFile !== undefined ? { tokenAuthFile } : {}),
    ...(Object.keys(serviceAccountTokens).length > 0 ? { serviceAccountTokens } : {}),
    securePort,
    storage,
    ...(etcd !== undefined ? { etcd } : {}),
    ...(storageMediaType !== undefined ? { storageMediaType } : {}),
    ...(eventTtlSeconds !== undefined ? { eventTtlSeconds } : {}),
    ...(watchCache !== undefined ? { watchCache } : {}),
    ...(watchCacheSizes !== undefined ? { watchCacheSizes } : {}),
    featureGates,
    verbosity,
    anonymousAuth,
    componentsThread: componentsThread ?? (nodes ?? 1) >= componentsThreadNodes,
    netThread,
    ...(authorizationModes !== undefined ? { authorizationModes } : {}),
    ...(enablePriorityAndFairness !== undefined ? { enablePriorityAndFairness } : {}),
    ...inflight,
    ...(runtimeConfig !== '' ? { runtimeConfig } : {}),
    ...(controllers !== undefined ? { controllerSelection: controllers } : {}),
    ...(nodes !== undefined ? { nodes } : {}),
    ...(nodeTemplate !== undefined ? { nodeTemplate } : {}),
    ...(nodeIPs !== undefined ? { nodeIPs } : {}),
    ...(proxyMode !== undefined ? { proxyMode } : {}),
    ...(kubeconfigPath !== undefined ? { kubeconfigPath } : {}),
    ...(synchronous !== undefined ? { synchronous } : {}),
    ...(serviceClusterIPRange !== undefined ? { serviceClusterIPRange } : {}),
    ...(serviceNodePortRange !== undefined ? { serviceNodePortRange } : {}),
    ...(advertiseAddress !== undefined ? { advertiseAddress } : {}),
    ...(nodeIpam !== undefined ? { nodeIpam } : {}),
    auditFlags,
    admission: {
      ...(enableAdmission !== undefined ? { enable: enableAdmission } : {}),
      ...(disableAdmission !== undefined ? { disable: disableAdmission } : {}),
      ...(admissionConfigFile !== undefined ? { configFile: admissionConfigFile } : {}),
    },
    ...(corsAllowedOrigins !== undefined ? { corsAllowedOrigins } : {}),
    ...(faultsFile !== undefined ? { faultsFile } : {}),
    profiling,
    ...(debugSocketPath !== undefined ? { debugSocketPath } : {}),
    ...(encryptionConfig !== undefined
      ? { encryption: { configPath: encryptionConfig, automaticReload: encryptionReload } }
      : {}),
    ...(tlsMinVersion !== undefined ? { tlsMinVersion } : {}),
    ...(tlsCipherSuites !== undefined ? { tlsCipherSuites } : {}),
    ...(http2MaxStreams !== undefined ? { serving: { http2MaxStreamsPerConnection: http2MaxStreams } } : {}),
  };
}

/** A TLS setting upstream refuses: its message, as a flag error. */
function checkTls(check: () => unknown): void {
  try {
    check();
  } catch (err) {
    if (err instanceof TlsOptionError) throw new FlagError(err.message);
    throw err;
  }
}

/** pflag's IntVar: Go's strconv.ParseInt errors, within 32 bits (the stream limit is a uint32). */
function goInt(v: string, flag: string): number {
  const reason = !/^[+-]?\d+$/.test(v)
    ? 'invalid syntax'
    : Math.abs(Number(v)) > 2 ** 31 - 1
      ? 'value out of range'
      : undefined;
  if (reason !== undefined) {
    throw new FlagError(
      `invalid argument "${v}" for "--${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: ${reason}`,
    );
  }
  return Number(v);
}
