import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeatureGateError } from '../../machinery/features.js';
import {
  FlagError,
  defaultAdvertiseAddress,
  defaultServiceClusterIPRange,
  firstServiceIP,
  dnsServiceIP,
  parseServeFlags,
} from './flags.js';

test('defaults match the documented flags', () => {
  const o = parseServeFlags([]);
  assert.equal(o.dataDir, './.nanokube');
  assert.equal(o.bindAddress, '127.0.0.1');
  assert.equal(o.securePort, 6443);
  assert.equal(o.storage, 'sqlite');
  assert.equal(o.synchronous, undefined);
});

test('flags in both spellings', () => {
  const o = parseServeFlags([
    '--data-dir=/tmp/x',
    '--secure-port',
    '0',
    '--storage=memory',
    '--feature-gates=WatchList=true,InPlacePodVerticalScaling=true',
    '-v',
    '4',
    '--sqlite-synchronous=normal',
    '--write-kubeconfig',
    '/tmp/kc',
  ]);
  assert.equal(o.dataDir, '/tmp/x');
  assert.equal(o.securePort, 0);
  assert.equal(o.storage, 'memory');
  assert.deepEqual(o.featureGates, { WatchList: true, InPlacePodVerticalScaling: true });
  assert.equal(o.verbosity, 4);
  assert.equal(o.synchronous, 'NORMAL');
  assert.equal(o.kubeconfigPath, '/tmp/kc');
});

test('bad flags and gates are refused with clear errors', () => {
  assert.throws(() => parseServeFlags(['--bogus']), FlagError);
  assert.throws(() => parseServeFlags(['--secure-port', '70000']), FlagError);
  assert.throws(
    () => parseServeFlags(['--feature-gates=NoSuchGate=true']),
    /unrecognized feature gate: NoSuchGate/,
  );
  assert.throws(() => parseServeFlags(['--feature-gates=CronJobTimeZone=false']), FeatureGateError);
});

test("--proxy-mode: iptables runs the simulated nodes' proxies; none (the default) does not; others are refused", () => {
  assert.equal(parseServeFlags([]).proxyMode, undefined);
  assert.equal(parseServeFlags(['--proxy-mode', 'none']).proxyMode, undefined);
  assert.equal(parseServeFlags(['--proxy-mode=iptables']).proxyMode, 'iptables');
  assert.throws(() => parseServeFlags(['--proxy-mode', 'ipvs']), {
    message: `invalid argument "ipvs" for "--proxy-mode" flag: nanokube's proxy has only the iptables mode`,
  });
  assert.throws(() => parseServeFlags(['--proxy-mode', 'userspace']), {
    message: 'invalid argument "userspace" for "--proxy-mode" flag: must be iptables or none',
  });
});

test('--components-thread: on by default from 100 simulated nodes; an explicit value wins', () => {
  assert.equal(parseServeFlags([]).componentsThread, false);
  assert.equal(parseServeFlags(['--nodes', '99']).componentsThread, false);
  assert.equal(parseServeFlags(['--nodes', '100']).componentsThread, true);
  assert.equal(parseServeFlags(['--nodes', '1000', '--components-thread=false']).componentsThread, false);
  assert.equal(parseServeFlags(['--components-thread']).componentsThread, true);
  assert.equal(parseServeFlags(['--components-thread=true', '--nodes', '0']).componentsThread, true);
  assert.throws(
    () => parseServeFlags(['--components-thread=yes']),
    (err: unknown) =>
      err instanceof FlagError &&
      err.message === 'invalid argument "yes" for "--components-thread" flag: must be true or false',
  );
});

test('--anonymous-auth is a boolean flag, off by default in nanokube', () => {
  assert.equal(parseServeFlags([]).anonymousAuth, false);
  assert.equal(parseServeFlags(['--anonymous-auth=true']).anonymousAuth, true);
  assert.equal(parseServeFlags(['--anonymous-auth=false']).anonymousAuth, false);
  assert.equal(parseServeFlags(['--anonymous-auth', '--storage=memory']).anonymousAuth, true);
  assert.throws(() => parseServeFlags(['--anonymous-auth=maybe']), FlagError);
});

test('token authentication flags: token file, service-account issuer, keys, audiences, expiry', () => {
  assert.equal(parseServeFlags([]).serviceAccountTokens, undefined);
  const o = parseServeFlags([
    '--token-auth-file=/tmp/tokens.csv',
    '--service-account-issuer',
    'https://issuer.example',
    '--service-account-issuer=https://old.example',
    '--api-audiences=a,b',
    '--service-account-signing-key-file=/k/sa.key',
    '--service-account-key-file=/k/1.pub',
    '--service-account-key-file=/k/2.pub',
    '--service-account-max-token-expiration=48h',
    '--service-account-extend-token-expiration=false',
    '--service-account-jwks-uri=https://issuer.example/keys',
  ]);
  assert.equal(o.tokenAuthFile, '/tmp/tokens.csv');
  assert.deepEqual(o.serviceAccountTokens, {
    issuers: ['https://issuer.example', 'https://old.example'],
    apiAudiences: ['a', 'b'],
    signingKeyFile: '/k/sa.key',
    keyFiles: ['/k/1.pub', '/k/2.pub'],
    maxTokenExpirationSeconds: 172800,
    extendTokenExpiration: false,
    jwksURI: 'https://issuer.example/keys',
  });
  assert.throws(
    () => parseServeFlags(['--service-account-max-token-expiration=30m']),
    /the service-account-max-token-expiration must be between 1 hour and 2\^32 seconds/,
  );
  assert.throws(() => parseServeFlags(['--service-account-max-token-expiration=soon']), FlagError);
  assert.throws(
    () => parseServeFlags(['--service-account-issuer=a', '--service-account-issuer=a']),
    /service-account-issuer "a" is already specified/,
  );
  assert.throws(
    () => parseServeFlags(['--service-account-jwks-uri=http://x/keys']),
    /service-account-jwks-uri requires https scheme/,
  );
});

test('--encryption-provider-config and its automatic reload', () => {
  assert.equal(parseServeFlags([]).encryption, undefined);
  assert.deepEqual(parseServeFlags(['--encryption-provider-config', '/etc/enc.yaml']).encryption, {
    configPath: '/etc/enc.yaml',
    automaticReload: false,
  });
  assert.deepEqual(
    parseServeFlags(['--encryption-provider-config=/e.json', '--encryption-provider-config-automatic-reload'])
      .encryption,
    { configPath: '/e.json', automaticReload: true },
  );
  assert.throws(() => parseServeFlags(['--encryption-provider-config-automatic-reload']), {
    message: '--encryption-provider-config-automatic-reload must be set with --encryption-provider-config',
  });
});

test('--enable-priority-and-fairness and the in-flight limits (AM-18)', () => {
  assert.equal(parseServeFlags([]).enablePriorityAndFairness, undefined);
  assert.equal(parseServeFlags(['--enable-priority-and-fairness=false']).enablePriorityAndFairness, false);
  assert.equal(parseServeFlags(['--enable-priority-and-fairness']).enablePriorityAndFairness, true);
  assert.throws(() => parseServeFlags(['--enable-priority-and-fairness=no']), FlagError);
  const o = parseServeFlags(['--max-requests-inflight', '40', '--max-mutating-requests-inflight=20']);
  assert.equal(o.maxRequestsInflight, 40);
  assert.equal(o.maxMutatingRequestsInflight, 20);
  assert.throws(() => parseServeFlags(['--max-requests-inflight', '-1']), FlagError);
});

test('--service-cluster-ip-range and --advertise-address', () => {
  const none = parseServeFlags([]);
  assert.equal(none.serviceClusterIPRange, undefined);
  assert.equal(none.advertiseAddress, undefined);
  const o = parseServeFlags(['--service-cluster-ip-range=10.0.0.0/24', '--advertise-address', '192.168.1.5']);
  assert.equal(o.serviceClusterIPRange, '10.0.0.0/24');
  assert.equal(o.advertiseAddress, '192.168.1.5');
  assert.throws(() => parseServeFlags(['--service-cluster-ip-range=10.0.0.0']), FlagError);
  assert.throws(() => parseServeFlags(['--service-cluster-ip-range=10.0.0.0/31']), FlagError);
  assert.throws(() => parseServeFlags(['--advertise-address=host.example']), /failed to parse IP/);
  assert.throws(
    () => parseServeFlags(['--advertise-address=fd00::5']),
    /must match advertise address family/,
  );
  assert.equal(
    parseServeFlags(['--service-cluster-ip-range=fd00:10::/108', '--advertise-address=fd00::5'])
      .advertiseAddress,
    'fd00::5',
  );
});

test("the kubernetes Service IP is the range's first address; the advertise default skips loopback", () => {
  assert.equal(firstServiceIP(defaultServiceClusterIPRange), '10.96.0.1');
  assert.equal(firstServiceIP('10.0.0.7/24'), '10.0.0.1');
  assert.equal(firstServiceIP('10.0.0.255/32'), undefined);
  assert.equal(firstServiceIP('fd00:10:96::/112,10.96.0.0/12'), 'fd00:10:96::1');
  // The cluster DNS address is kubeadm's: the tenth of the range (none in a range too small).
  assert.equal(dnsServiceIP(defaultServiceClusterIPRange), '10.96.0.10');
  assert.equal(dnsServiceIP('10.0.0.250/24'), '10.0.0.10');
  assert.equal(dnsServiceIP('10.0.0.0/29'), undefined);
  assert.equal(dnsServiceIP('fd00:10:96::/112'), 'fd00:10:96::a');
  assert.equal(defaultAdvertiseAddress('192.168.7.7'), '192.168.7.7');
  const chosen = defaultAdvertiseAddress('127.0.0.1');
  assert.ok(chosen === undefined || !chosen.startsWith('127.'), chosen);
  assert.notEqual(defaultAdvertiseAddress('0.0.0.0'), '0.0.0.0');
});

test('--runtime-config is checked and accumulates', () => {
  assert.equal(parseServeFlags([]).runtimeConfig, undefined);
  assert.equal(
    parseServeFlags(['--runtime-config=api/alpha=true', '--runtime-config', 'resource.k8s.io/v1alpha2=false'])
      .runtimeConfig,
    'api/alpha=true,resource.k8s.io/v1alpha2=false',
  );
  assert.throws(() => parseServeFlags(['--runtime-config=apps/v1=sometimes']), FlagError);
});

test('--node-capacity and --node-labels make the simulated nodes template', () => {
  const o = parseServeFlags([
    '--nodes',
    '3',
    '--node-capacity',
    'cpu=4,memory=16Gi,pods=50',
    '--node-labels=zone=a',
  ]);
  assert.equal(o.nodes, 3);
  assert.deepEqual(o.nodeTemplate, {
    capacity: { cpu: '4', memory: '16Gi', pods: '50' },
    labels: { zone: 'a' },
  });
  assert.throws(
    () => parseServeFlags(['--node-capacity', 'cpu=lots']),
    /invalid argument "cpu=lots" for "--node-capacity" flag: cpu: "lots" is not a quantity/,
  );
  assert.throws(() => parseServeFlags(['--node-labels', 'oops']), /"oops" is not key=value/);
});

test('--service-node-port-range and dual-stack --service-cluster-ip-range (NW-03)', () => {
  assert.equal(
    parseServeFlags(['--service-node-port-range=30000-30100']).serviceNodePortRange,
    '30000-30100',
  );
  assert.equal(parseServeFlags([]).serviceNodePortRange, undefined);
  assert.throws(
    () => parseServeFlags(['--service-node-port-range', 'x']),
    (e: unknown) =>
      e instanceof FlagError &&
      e.message ===
        'invalid argument "x" for "--service-node-port-range" flag: unable to parse "x" as a port range',
  );
  const dual = parseServeFlags(['--service-cluster-ip-range=10.96.0.0/12,fd00:10:96::/108']);
  assert.equal(dual.serviceClusterIPRange, '10.96.0.0/12,fd00:10:96::/108');
  assert.throws(
    () => parseServeFlags(['--service-cluster-ip-range=10.96.0.0/12,10.100.0.0/16']),
    /must be of different IP family/,
  );
  assert.throws(
    () => parseServeFlags(['--service-cluster-ip-range=10.0.0.0/8']),
    /specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12/,
  );
  assert.throws(
    () => parseServeFlags(['--service-cluster-ip-range=10.96.0.0/12,fd00::/64']),
    /specified --secondary-service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108/,
  );
  // MultiCIDRServiceAllocator lifts the size limit.
  assert.doesNotThrow(() =>
    parseServeFlags([
      '--feature-gates=MultiCIDRServiceAllocator=true',
      '--service-cluster-ip-range=10.0.0.0/8',
    ]),
  );
});

test('--allocate-node-cidrs with --cluster-cidr and mask sizes become the nodeipam options (NW-11)', () => {
  assert.equal(parseServeFlags([]).nodeIpam, undefined, 'off by default, as kube-controller-manager');
  assert.deepEqual(
    parseServeFlags(['--allocate-node-cidrs', '--cluster-cidr', '10.244.0.0/16', '--node-cidr-mask-size=26'])
      .nodeIpam,
    { clusterCIDRs: ['10.244.0.0/16'], nodeCIDRMaskSize: 26, serviceCIDRs: ['10.96.0.0/12'] },
  );
  assert.equal(
    parseServeFlags(['--allocate-node-cidrs=false', '--cluster-cidr=10.0.0.0/8']).nodeIpam,
    undefined,
  );
  assert.throws(() => parseServeFlags(['--allocate-node-cidrs']), /--cluster-cidr is required/);
  assert.throws(
    () => parseServeFlags(['--allocate-node-cidrs=yes', '--cluster-cidr=10.0.0.0/8']),
    /strconv.ParseBool: parsing "yes": invalid syntax/,
  );
});

test('AM-17: audit flags as kube-apiserver v1.27, checked only with --audit-log-path', () => {
  assert.deepEqual(parseServeFlags([]).auditFlags, {});
  assert.deepEqual(parseServeFlags(['--audit-policy-file', '/p.yaml']).auditFlags, { policyFile: '/p.yaml' });
  assert.deepEqual(
    parseServeFlags([
      '--audit-policy-file=/p.yaml',
      '--audit-log-path=/var/log/audit.log',
      '--audit-log-maxage=7',
      '--audit-log-maxbackup=3',
      '--audit-log-maxsize=50',
      '--audit-log-mode=batch',
    ]).auditFlags,
    {
      policyFile: '/p.yaml',
      log: {
        path: '/var/log/audit.log',
        maxAge: 7,
        maxBackups: 3,
        maxSize: 50,
        mode: 'batch',
        bufferSize: 10000,
      },
    },
  );
  assert.equal(
    parseServeFlags(['--audit-log-path', '-']).auditFlags?.log?.mode,
    'blocking',
    'the v1.27 default',
  );
  // Without a log path the log options are not validated (upstream's enabled()).
  assert.deepEqual(parseServeFlags(['--audit-log-mode=nonsense']).auditFlags, {});
  const refused = (args: string[]): string => {
    try {
      parseServeFlags(['--audit-log-path=/a.log', ...args]);
    } catch (err) {
      assert.ok(err instanceof FlagError);
      return err.message;
    }
    return 'accepted';
  };
  assert.equal(
    refused(['--audit-log-mode=fast']),
    'invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict"',
  );
  assert.equal(refused(['--audit-log-maxage=-1']), "--audit-log-maxage -1 can't be a negative number");
  assert.equal(
    refused(['--audit-log-maxbackup=-1', '--audit-log-maxsize=-2']),
    "[--audit-log-maxbackup -1 can't be a negative number, --audit-log-maxsize -2 can't be a negative number]",
  );
  assert.equal(
    refused(['--audit-log-format=xml']),
    'invalid audit log format xml, allowed formats are "legacy,json"',
  );
  assert.match(refused(['--audit-log-format=legacy']), /legacy is not supported by nanokube/);
  assert.match(refused(['--audit-log-mode=blocking-strict']), /blocking-strict is not supported by nanokube/);
  assert.equal(
    refused(['--audit-log-maxsize=ten']),
    'invalid argument "ten" for "--audit-log-maxsize" flag: strconv.ParseInt: parsing "ten": invalid syntax',
  );
});

test('--storage-media-type: JSON (the default) or protobuf; YAML and others are refused', () => {
  assert.equal(parseServeFlags([]).storageMediaType, undefined);
  assert.equal(
    parseServeFlags(['--storage-media-type=application/vnd.kubernetes.protobuf']).storageMediaType,
    'application/vnd.kubernetes.protobuf',
  );
  assert.equal(
    parseServeFlags(['--storage-media-type', 'application/json']).storageMediaType,
    'application/json',
  );
  assert.throws(
    () => parseServeFlags(['--storage-media-type', 'application/yaml']),
    /invalid argument "application\/yaml" for "--storage-media-type" flag: nanokube stores application\/json or application\/vnd\.kubernetes\.protobuf/,
  );
});

test('--tls-min-version and --tls-cipher-suites take upstream names; unknown ones are refused with its messages', () => {
  const o = parseServeFlags([
    '--tls-min-version=VersionTLS13',
    '--tls-cipher-suites',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256',
    '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  ]);
  assert.equal(o.tlsMinVersion, 'VersionTLS13');
  assert.deepEqual(o.tlsCipherSuites, [
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  ]);
  assert.equal(parseServeFlags([]).tlsMinVersion, undefined);
  assert.throws(() => parseServeFlags(['--tls-min-version', 'TLS1.2']), {
    name: 'FlagError',
    message: 'unknown tls version "TLS1.2"',
  });
  assert.throws(() => parseServeFlags(['--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,NOPE']), {
    name: 'FlagError',
    message: "Cipher suite NOPE not supported or doesn't exist",
  });
  // Go implements RC4 (insecure); this Node's OpenSSL does not: refused rather than ignored.
  assert.throws(() => parseServeFlags(['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA']), {
    message: "Cipher suite TLS_RSA_WITH_RC4_128_SHA not supported or doesn't exist",
  });
});

test('--http2-max-streams-per-connection: an int as pflag reads it; 0 keeps the default', () => {
  assert.equal(parseServeFlags([]).serving, undefined);
  assert.deepEqual(parseServeFlags(['--http2-max-streams-per-connection', '1000']).serving, {
    http2MaxStreamsPerConnection: 1000,
  });
  assert.deepEqual(parseServeFlags(['--http2-max-streams-per-connection=0']).serving, {
    http2MaxStreamsPerConnection: 0,
  });
  assert.throws(() => parseServeFlags(['--http2-max-streams-per-connection', 'many']), {
    message:
      'invalid argument "many" for "--http2-max-streams-per-connection" flag: strconv.ParseInt: parsing "many": invalid syntax',
  });
});

test('--event-ttl: a Go duration in whole seconds (rounded up), greater than 0', () => {
  const refused = (args: string[]): string => {
    try {
      parseServeFlags(args);
    } catch (err) {
      assert.ok(err instanceof FlagError);
      return err.message;
    }
    return 'accepted';
  };
  assert.equal(parseServeFlags([]).eventTtlSeconds, undefined);
  assert.equal(parseServeFlags(['--event-ttl=5m']).eventTtlSeconds, 300);
  assert.equal(parseServeFlags(['--event-ttl', '1h30m']).eventTtlSeconds, 5400);
  assert.equal(parseServeFlags(['--event-ttl=1500ms']).eventTtlSeconds, 2);
  assert.equal(refused(['--event-ttl=0s']), '--event-ttl must be greater than 0');
  assert.match(refused(['--event-ttl=soon']), /^invalid argument "soon" for "--event-ttl" flag: /);
});
