import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonValue } from '../../util/json.js';
import { attrsOf, testDeps, testUser, type StoredObject } from '../testing/fake-admission-deps.js';
import { podSecurityPlugin } from './plugin.js';
import { bareSpec, namespaceObject, podObject, psLabels, restrictedSpec, run } from './testing/helpers.js';

function plugin(namespaces: readonly KubeObject[], config?: JsonValue) {
  const objects: StoredObject[] = namespaces.map((object) => ({ group: '', resource: 'namespaces', object }));
  const deps = testDeps({ objects, ...(config !== undefined ? { config: { PodSecurity: config } } : {}) });
  return podSecurityPlugin(deps);
}

const createPod = (pod: KubeObject, more: Partial<Parameters<typeof attrsOf>[0]> = {}) =>
  attrsOf({ resource: 'pods', kind: 'Pod', namespace: pod.metadata.namespace ?? '', object: pod, ...more });

const bareRestricted =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

test('enforce denies with 403 naming the pod and policy; enforce-policy recorded', async () => {
  const p = plugin([namespaceObject('ns', psLabels({ enforce: 'restricted' }))]);
  const out = await run(p, createPod(podObject('p', 'ns', bareSpec())));
  assert.deepEqual(out, {
    error: {
      code: 403,
      message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${bareRestricted}`,
    },
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' },
  });
  const ok = await run(p, createPod(podObject('q', 'ns', restrictedSpec())));
  assert.deepEqual(ok, {
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' },
  });
});

test('warn adds a warning and audit an annotation, each at its own level and version', async () => {
  const labels = {
    ...psLabels({ enforce: 'baseline' }),
    ...psLabels({ warn: 'restricted' }),
    ...psLabels({ audit: 'restricted' }, 'v1.19'),
  };
  const out = await run(plugin([namespaceObject('ns', labels)]), createPod(podObject('p', 'ns', bareSpec())));
  assert.deepEqual(out, {
    warnings: [`would violate PodSecurity "restricted:latest": ${bareRestricted}`],
    annotations: {
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations':
        'would violate PodSecurity "restricted:v1.19": ' +
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    },
  });
});

test('the enforce version decides which checks apply (runAsUser=0 from v1.23, sysctl list of v1.27)', async () => {
  const rootSpec = {
    ...restrictedSpec(),
    securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
  };
  const sysctlSpec = {
    ...restrictedSpec(),
    securityContext: {
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '80' }],
    },
  };
  const cases: [string, string, KubeObject, string | undefined][] = [
    ['restricted', 'v1.22', podObject('p', 'ns', rootSpec), undefined],
    ['restricted', 'v1.23', podObject('p', 'ns', rootSpec), 'runAsUser=0 (pod must not set runAsUser=0)'],
    ['restricted', 'latest', podObject('p', 'ns', rootSpec), 'runAsUser=0 (pod must not set runAsUser=0)'],
    [
      'baseline',
      'v1.26',
      podObject('p', 'ns', sysctlSpec),
      'forbidden sysctls (net.ipv4.ip_local_reserved_ports)',
    ],
    ['baseline', 'v1.27', podObject('p', 'ns', sysctlSpec), undefined],
    ['baseline', 'latest', podObject('p', 'ns', sysctlSpec), undefined],
    ['privileged', 'v1.0', podObject('p', 'ns', { ...bareSpec(), hostNetwork: true }), undefined],
  ];
  for (const [level, version, pod, detail] of cases) {
    const out = await run(
      plugin([namespaceObject('ns', psLabels({ enforce: level }, version))]),
      createPod(pod),
    );
    const expected =
      detail === undefined
        ? undefined
        : `pods "p" is forbidden: violates PodSecurity "${level}:${version}": ${detail}`;
    assert.equal(out.error?.message, expected, `${level}:${version}`);
  }
});

test('a namespace without labels under the default config is allowed without any evaluation', async () => {
  let lists = 0;
  let gets = 0;
  const deps = testDeps({ objects: [{ group: '', resource: 'namespaces', object: namespaceObject('ns') }] });
  const p = podSecurityPlugin({
    ...deps,
    lookup: {
      get: (gr, ns, name) => (gets++, deps.lookup.get(gr, ns, name)),
      list: (gr, ns) => (lists++, deps.lookup.list(gr, ns)),
    },
  });
  const pod = podObject('p', 'ns', {});
  Object.defineProperty(pod, 'spec', {
    enumerable: true,
    get: () => {
      throw new Error('spec read');
    },
  });
  const out = await run(p, createPod(pod));
  assert.deepEqual(out, {
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' },
  });
  assert.deepEqual([gets, lists], [1, 0]);
});

test('configured defaults apply to unlabeled namespaces; labels override them', async () => {
  const config = {
    apiVersion: 'pod-security.admission.config.k8s.io/v1',
    kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'baseline', 'enforce-version': 'v1.25', warn: 'restricted' },
  };
  const p = plugin(
    [namespaceObject('ns'), namespaceObject('open', psLabels({ enforce: 'privileged', warn: 'privileged' }))],
    config,
  );
  const spec = { ...bareSpec(), hostPID: true };
  const out = await run(p, createPod(podObject('p', 'ns', spec)));
  assert.equal(
    out.error?.message,
    'pods "p" is forbidden: violates PodSecurity "baseline:v1.25": host namespaces (hostPID=true)',
  );
  const open = await run(p, createPod(podObject('p', 'open', spec)));
  assert.deepEqual(open, {
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' },
  });
});

test('exemptions by user, namespace and runtime class', async () => {
  const config = {
    apiVersion: 'pod-security.admission.config.k8s.io/v1beta1',
    kind: 'PodSecurityConfiguration',
    exemptions: { usernames: ['system:admin'], namespaces: ['kube-system'], runtimeClasses: ['kata'] },
  };
  const labels = psLabels({ enforce: 'restricted', audit: 'restricted', warn: 'restricted' });
  const p = plugin([namespaceObject('ns', labels)], config);
  const byUser = await run(
    p,
    createPod(podObject('p', 'ns', bareSpec()), { user: testUser('system:admin') }),
  );
  assert.deepEqual(byUser, { warnings: [], annotations: { 'pod-security.kubernetes.io/exempt': 'user' } });
  // The namespace is not even read for an exempt namespace.
  const byNamespace = await run(p, createPod(podObject('p', 'kube-system', bareSpec())));
  assert.deepEqual(byNamespace, {
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/exempt': 'namespace' },
  });
  const byRuntimeClass = await run(
    p,
    createPod(podObject('p', 'ns', { ...bareSpec(), runtimeClassName: 'kata' })),
  );
  assert.deepEqual(byRuntimeClass, {
    warnings: [],
    annotations: { 'pod-security.kubernetes.io/exempt': 'runtimeClass' },
  });
  const other = await run(p, createPod(podObject('p', 'ns', { ...bareSpec(), runtimeClassName: 'runc' })));
  assert.equal(out403(other), true);
});

function out403(o: { error?: { code: number } }): boolean {
  return o.error?.code === 403;
}

test('updates: only image changes and new ephemeral containers are evaluated', async () => {
  const p = plugin([namespaceObject('ns', psLabels({ enforce: 'restricted' }))]);
  const old = podObject('p', 'ns', bareSpec('a'));
  const update = (object: KubeObject, subresource = '') =>
    attrsOf({
      operation: 'UPDATE',
      resource: 'pods',
      kind: 'Pod',
      namespace: 'ns',
      object,
      oldObject: old,
      subresource,
    });
  const relabeled = podObject('p', 'ns', bareSpec('a'), { labels: { x: 'y' } });
  assert.deepEqual(await run(p, update(relabeled)), { warnings: [], annotations: {} });
  const reimaged = await run(p, update(podObject('p', 'ns', bareSpec('b'))));
  assert.equal(
    reimaged.error?.message,
    `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${bareRestricted}`,
  );
  const withDebug = podObject('p', 'ns', {
    ...bareSpec('a'),
    ephemeralContainers: [{ name: 'debug', image: 'busybox' }],
  });
  const eph = await run(p, update(withDebug, 'ephemeralcontainers'));
  assert.equal(eph.error?.code, 403);
  assert.match(
    eph.error?.message ?? '',
    /^pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(containers "c", "debug" must/,
  );
  // status and other subresources are not pod specs to check.
  assert.deepEqual(await run(p, update(podObject('p', 'ns', bareSpec('b')), 'status')), {
    warnings: [],
    annotations: {},
  });
  assert.deepEqual(
    await run(
      p,
      attrsOf({ resource: 'pods', kind: 'Pod', subresource: 'binding', namespace: 'ns', object: old }),
    ),
    { warnings: [], annotations: {} },
  );
});

test('an invalid enforce label enforces restricted:latest and records the parse error', async () => {
  const p = plugin([namespaceObject('ns', { 'pod-security.kubernetes.io/enforce': 'bogus' })]);
  const out = await run(p, createPod(podObject('p', 'ns', restrictedSpec())));
  assert.deepEqual(out, {
    warnings: [],
    annotations: {
      'pod-security.kubernetes.io/error':
        'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
      'pod-security.kubernetes.io/enforce-policy': 'restricted:latest',
    },
  });
});

test('a namespace that cannot be found is an internal error', async () => {
  const out = await run(plugin([]), createPod(podObject('p', 'gone', restrictedSpec())));
  assert.deepEqual(out, {
    error: { code: 500, message: 'Internal error occurred: failed to lookup namespace "gone"' },
    warnings: [],
    annotations: {
      'pod-security.kubernetes.io/error':
        'Internal error occurred: failed to lookup namespace "gone": namespaces "gone" not found',
    },
  });
});

test('a generated name is the one the refusal names; deletes and connects are not looked at', async () => {
  const p = plugin([namespaceObject('ns', psLabels({ enforce: 'restricted' }))]);
  const pod = podObject('web-x7k2q', 'ns', bareSpec(), { generateName: 'web-' });
  const out = await run(p, { ...createPod(pod), name: '' });
  assert.match(out.error?.message ?? '', /^pods "web-x7k2q" is forbidden: violates PodSecurity/);
  assert.equal(p.operations.has('DELETE'), false);
  assert.equal(p.operations.has('CONNECT'), false);
});
