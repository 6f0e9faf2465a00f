import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { aggregateCheckResults, forbiddenDetail } from './aggregate.js';
import { defaultChecks } from './default-checks.js';
import { Evaluator } from './evaluator.js';
import type { Level } from './level.js';
import { podMetadata } from './pod-fields.js';
import { parseVersion } from './version.js';

const evaluator = new Evaluator(defaultChecks);

/** The aggregated detail message of a pod at level:version, or 'allowed'. */
function verdict(level: Level, version: string, pod: JsonObject): string {
  const meta = podMetadata(pod['metadata']);
  const spec = pod['spec'] as JsonObject;
  const r = aggregateCheckResults(
    evaluator.evaluatePod({ level, version: parseVersion(version).version }, meta, spec),
  );
  return r.allowed ? 'allowed' : forbiddenDetail(r);
}

const compliantContainer = {
  name: 'c',
  image: 'x',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
};
const compliantPodSecurityContext = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };

function pod(spec: JsonObject, annotations?: Record<string, string>): JsonObject {
  return {
    metadata: { name: 'p', ...(annotations !== undefined ? { annotations } : {}) },
    spec: { containers: [compliantContainer], securityContext: compliantPodSecurityContext, ...spec },
  };
}

const ape =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)';
const caps = 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"])';
const nonRoot = 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)';
const seccomp =
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

interface Row {
  readonly name: string;
  readonly pod: JsonObject;
  /** `level:version` → expected detail or 'allowed'; unlisted combinations are allowed. */
  readonly expect: Readonly<Record<string, string>>;
}

const allVersions = [
  'latest',
  'v1.28',
  'v1.27',
  'v1.26',
  'v1.25',
  'v1.24',
  'v1.23',
  'v1.22',
  'v1.21',
  'v1.19',
  'v1.18',
  'v1.8',
  'v1.7',
  'v1.0',
];

const rows: Row[] = [
  {
    name: 'bare pod',
    pod: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    expect: {
      ...Object.fromEntries(
        ['latest', 'v1.28', 'v1.27', 'v1.26', 'v1.25', 'v1.24', 'v1.23', 'v1.22'].map((v) => [
          `restricted:${v}`,
          [ape, caps, nonRoot, seccomp].join(', '),
        ]),
      ),
      'restricted:v1.21': [ape, nonRoot, seccomp].join(', '),
      'restricted:v1.19': [ape, nonRoot, seccomp].join(', '),
      'restricted:v1.18': [ape, nonRoot].join(', '),
      'restricted:v1.8': [ape, nonRoot].join(', '),
      'restricted:v1.7': nonRoot,
      'restricted:v1.0': nonRoot,
    },
  },
  { name: 'restricted-compliant pod', pod: pod({}), expect: {} },
  {
    name: 'privileged host pod',
    pod: pod({
      hostNetwork: true,
      containers: [
        {
          ...compliantContainer,
          securityContext: { ...compliantContainer.securityContext, privileged: true },
          ports: [{ containerPort: 80, hostPort: 8080 }],
        },
      ],
      volumes: [
        { name: 'host', hostPath: { path: '/' } },
        { name: 'cm', configMap: { name: 'x' } },
      ],
    }),
    expect: Object.fromEntries(
      allVersions.flatMap((v) => [
        [
          `baseline:${v}`,
          'host namespaces (hostNetwork=true), hostPath volumes (volume "host"), hostPort (container "c" uses hostPort 8080), ' +
            'privileged (container "c" must not set securityContext.privileged=true)',
        ],
        [
          `restricted:${v}`,
          'host namespaces (hostNetwork=true), hostPort (container "c" uses hostPort 8080), ' +
            'privileged (container "c" must not set securityContext.privileged=true), ' +
            'restricted volume types (volume "host" uses restricted volume type "hostPath")',
        ],
      ]),
    ),
  },
  {
    name: 'sysctl added to the safe list in v1.27',
    pod: pod({
      securityContext: {
        ...compliantPodSecurityContext,
        sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '80' }],
      },
    }),
    expect: Object.fromEntries(
      [
        'v1.26',
        'v1.25',
        'v1.24',
        'v1.23',
        'v1.22',
        'v1.21',
        'v1.19',
        'v1.18',
        'v1.8',
        'v1.7',
        'v1.0',
      ].flatMap((v) => [
        [`baseline:${v}`, 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)'],
        [`restricted:${v}`, 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)'],
      ]),
    ),
  },
  {
    name: 'unsafe sysctls at every version',
    pod: pod({
      securityContext: {
        ...compliantPodSecurityContext,
        sysctls: [
          { name: 'kernel.msgmax', value: '1' },
          { name: 'net.ipv4.tcp_syncookies', value: '1' },
          { name: 'a.b', value: '1' },
        ],
      },
    }),
    expect: Object.fromEntries(
      allVersions.flatMap((v) => [
        [`baseline:${v}`, 'forbidden sysctls (kernel.msgmax, a.b)'],
        [`restricted:${v}`, 'forbidden sysctls (kernel.msgmax, a.b)'],
      ]),
    ),
  },
  {
    name: 'runAsUser=0 (restricted from v1.23)',
    pod: pod({
      securityContext: { ...compliantPodSecurityContext, runAsUser: 0 },
      containers: [
        { ...compliantContainer, securityContext: { ...compliantContainer.securityContext, runAsUser: 0 } },
      ],
    }),
    expect: Object.fromEntries(
      ['latest', 'v1.28', 'v1.27', 'v1.26', 'v1.25', 'v1.24', 'v1.23'].map((v) => [
        `restricted:${v}`,
        'runAsUser=0 (pod and container "c" must not set runAsUser=0)',
      ]),
    ),
  },
  {
    name: 'seccompProfile Unconfined (field checked from v1.19)',
    pod: pod({ securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Unconfined' } } }),
    expect: Object.fromEntries(
      ['latest', 'v1.28', 'v1.27', 'v1.26', 'v1.25', 'v1.24', 'v1.23', 'v1.22', 'v1.21', 'v1.19'].flatMap(
        (v) => [
          [
            `baseline:${v}`,
            'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
          ],
          [
            `restricted:${v}`,
            'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
          ],
        ],
      ),
    ),
  },
  {
    name: 'seccomp annotations (checked before v1.19)',
    pod: pod(
      { containers: [compliantContainer, { ...compliantContainer, name: 'd' }] },
      {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default',
        'container.seccomp.security.alpha.kubernetes.io/d': 'unknown',
      },
    ),
    expect: Object.fromEntries(
      ['v1.18', 'v1.8', 'v1.7', 'v1.0'].flatMap((v) => [
        [
          `baseline:${v}`,
          'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/d="unknown", ' +
            'seccomp.security.alpha.kubernetes.io/pod="unconfined")',
        ],
        [
          `restricted:${v}`,
          'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/d="unknown", ' +
            'seccomp.security.alpha.kubernetes.io/pod="unconfined")',
        ],
      ]),
    ),
  },
  {
    name: 'NET_RAW added (restricted capabilities from v1.22)',
    pod: pod({
      containers: [
        {
          ...compliantContainer,
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'], add: ['NET_RAW', 'NET_BIND_SERVICE', 'CHOWN'] },
          },
        },
      ],
    }),
    expect: Object.fromEntries(
      allVersions.flatMap((v) => {
        const restricted = ['v1.21', 'v1.19', 'v1.18', 'v1.8', 'v1.7', 'v1.0'].includes(v)
          ? 'non-default capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)'
          : 'unrestricted capabilities (container "c" must not include "CHOWN", "NET_RAW" in securityContext.capabilities.add)';
        return [
          [
            `baseline:${v}`,
            'non-default capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
          ],
          [`restricted:${v}`, restricted],
        ];
      }),
    ),
  },
  {
    name: 'windows pod without linux security context (exempt from v1.25)',
    pod: {
      metadata: { name: 'w' },
      spec: {
        os: { name: 'windows' },
        securityContext: { runAsNonRoot: true },
        containers: [{ name: 'c', image: 'x' }],
      },
    },
    expect: {
      ...Object.fromEntries(
        ['v1.24', 'v1.23', 'v1.22'].map((v) => [
          `restricted:${v}`,
          [
            ape,
            caps,
            'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
          ].join(', '),
        ]),
      ),
      'restricted:v1.21': [ape, seccomp].join(', '),
      'restricted:v1.19': [ape, seccomp].join(', '),
      'restricted:v1.18': ape,
      'restricted:v1.8': ape,
    },
  },
  {
    name: 'windows hostProcess',
    pod: pod({
      os: { name: 'windows' },
      securityContext: { ...compliantPodSecurityContext, windowsOptions: { hostProcess: true } },
      containers: [
        {
          ...compliantContainer,
          securityContext: { ...compliantContainer.securityContext, windowsOptions: { hostProcess: true } },
        },
      ],
    }),
    expect: Object.fromEntries(
      allVersions.flatMap((v) => [
        [
          `baseline:${v}`,
          'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
        ],
        [
          `restricted:${v}`,
          'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
        ],
      ]),
    ),
  },
  {
    name: 'AppArmor, procMount, SELinux across containers',
    pod: pod(
      {
        securityContext: { ...compliantPodSecurityContext, seLinuxOptions: { type: 'spc_t', user: 'root' } },
        initContainers: [
          {
            ...compliantContainer,
            name: 'i',
            securityContext: { ...compliantContainer.securityContext, procMount: 'Unmasked' },
          },
        ],
        containers: [
          {
            ...compliantContainer,
            name: 'a',
            securityContext: {
              ...compliantContainer.securityContext,
              seLinuxOptions: { type: 'container_t', role: 'r' },
            },
          },
          {
            ...compliantContainer,
            name: 'b',
            securityContext: { ...compliantContainer.securityContext, procMount: 'Default' },
          },
        ],
      },
      {
        'container.apparmor.security.beta.kubernetes.io/a': 'unconfined',
        'container.apparmor.security.beta.kubernetes.io/b': 'localhost/x',
        'container.apparmor.security.beta.kubernetes.io/i': 'runtime/default',
      },
    ),
    expect: Object.fromEntries(
      allVersions.flatMap((v) => {
        const msg =
          'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/a="unconfined"), ' +
          'procMount (container "i" must not set securityContext.procMount to "Unmasked"), ' +
          'seLinuxOptions (pod and container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)';
        return [
          [`baseline:${v}`, msg],
          [`restricted:${v}`, msg],
        ];
      }),
    ),
  },
  {
    name: 'restricted volume types and ephemeral containers',
    pod: pod({
      ephemeralContainers: [
        {
          name: 'debug',
          image: 'x',
          securityContext: { allowPrivilegeEscalation: true, capabilities: { drop: ['ALL'] } },
        },
      ],
      volumes: [
        { name: 'a', nfs: { server: 's', path: '/' } },
        { name: 'b', gitRepo: { repository: 'r' } },
        { name: 'c', secret: { secretName: 's' } },
        { name: 'd', ephemeral: { volumeClaimTemplate: { spec: {} } } },
      ],
    }),
    expect: Object.fromEntries(
      allVersions.map((v) => [
        `restricted:${v}`,
        ['v1.7', 'v1.0'].includes(v)
          ? 'restricted volume types (volumes "a", "b" use restricted volume types "gitRepo", "nfs")'
          : 'allowPrivilegeEscalation != false (container "debug" must set securityContext.allowPrivilegeEscalation=false), ' +
            'restricted volume types (volumes "a", "b" use restricted volume types "gitRepo", "nfs")',
      ]),
    ),
  },
];

for (const row of rows) {
  test(`policy table: ${row.name}`, () => {
    for (const version of allVersions) {
      assert.equal(verdict('privileged', version, row.pod), 'allowed', `privileged:${version}`);
      for (const level of ['baseline', 'restricted'] as const) {
        const key = `${level}:${version}`;
        assert.equal(verdict(level, version, row.pod), row.expect[key] ?? 'allowed', key);
      }
    }
  });
}

test('multiple containers and host ports pluralize and sort as upstream', () => {
  const p: JsonObject = {
    metadata: {},
    spec: {
      containers: [
        { name: 'a', ports: [{ hostPort: 0 }] },
        { name: 'b', ports: [{ hostPort: 20 }, { hostPort: 10 }] },
        {
          name: 'c',
          ports: [{ hostPort: 10 }, { hostPort: 30 }],
          securityContext: { capabilities: { add: ['FOO', 'BAR'] } },
        },
        { name: 'd', securityContext: { capabilities: { add: ['BAZ', 'CHOWN'] } } },
      ],
      hostPID: true,
      hostIPC: true,
    },
  };
  assert.equal(
    verdict('baseline', 'latest', p),
    'non-default capabilities (containers "c", "d" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add), ' +
      'host namespaces (hostPID=true, hostIPC=true), hostPort (containers "b", "c" use hostPorts 10, 20, 30)',
  );
  assert.match(
    verdict('restricted', 'latest', p),
    /unrestricted capabilities \(containers "a", "b", "c", "d" must set securityContext.capabilities.drop=\["ALL"\]; containers "c", "d" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add\)/,
  );
});

test('explicit bad values win over missing ones; container-level settings satisfy restricted', () => {
  const explicit: JsonObject = {
    metadata: {},
    spec: {
      securityContext: { runAsNonRoot: false, seccompProfile: { type: 'Localhost', localhostProfile: 'p' } },
      containers: [
        {
          name: 'a',
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            runAsNonRoot: false,
          },
        },
        {
          name: 'b',
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'Unconfined' },
          },
        },
      ],
    },
  };
  assert.equal(
    verdict('restricted', 'latest', explicit),
    'runAsNonRoot != true (pod and container "a" must not set securityContext.runAsNonRoot=false), ' +
      'seccompProfile (container "b" must not set securityContext.seccompProfile.type to "Unconfined")',
  );
  const perContainer: JsonObject = {
    metadata: {},
    spec: {
      containers: ['a', 'b'].map((name) => ({
        name,
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
          runAsNonRoot: true,
          seccompProfile: { type: 'RuntimeDefault' },
        },
      })),
    },
  };
  assert.equal(verdict('restricted', 'latest', perContainer), 'allowed');
});

test('checks run baseline first, each level in ID order; versions past v1.27 evaluate as v1.27', () => {
  const everything: JsonObject = {
    metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'x' } },
    spec: {
      hostIPC: true,
      securityContext: { runAsUser: 0, sysctls: [{ name: 'x' }] },
      volumes: [{ name: 'v', awsElasticBlockStore: {} }],
      containers: [
        { name: 'c', securityContext: { privileged: true, procMount: 'Unmasked' }, ports: [{ hostPort: 1 }] },
      ],
    },
  };
  const reasons = (version: string): string[] => {
    const meta = podMetadata(everything['metadata']);
    const r = aggregateCheckResults(
      evaluator.evaluatePod(
        { level: 'restricted', version: parseVersion(version).version },
        meta,
        everything['spec'] as JsonObject,
      ),
    );
    return [...r.forbiddenReasons];
  };
  assert.deepEqual(reasons('latest'), [
    'forbidden AppArmor profile',
    'host namespaces',
    'hostPort',
    'privileged',
    'procMount',
    'forbidden sysctls',
    'allowPrivilegeEscalation != false',
    'unrestricted capabilities',
    'restricted volume types',
    'runAsNonRoot != true',
    'runAsUser=0',
    'seccompProfile',
  ]);
  assert.deepEqual(reasons('v1.99'), reasons('v1.27'));
  assert.deepEqual(reasons('v1.0'), [
    'forbidden AppArmor profile',
    'host namespaces',
    'hostPort',
    'privileged',
    'procMount',
    'forbidden sysctls',
    'restricted volume types',
    'runAsNonRoot != true',
  ]);
});
