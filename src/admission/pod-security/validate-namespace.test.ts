import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonValue } from '../../util/json.js';
import { attrsOf, testDeps, type StoredObject } from '../testing/fake-admission-deps.js';
import { podSecurityPlugin } from './plugin.js';
import { bareSpec, namespaceObject, podObject, psLabels, restrictedSpec, run } from './testing/helpers.js';

function plugin(pods: readonly KubeObject[], config?: JsonValue) {
  const objects: StoredObject[] = pods.map((object) => ({ group: '', resource: 'pods', object }));
  return podSecurityPlugin(
    testDeps({ objects, ...(config !== undefined ? { config: { PodSecurity: config } } : {}) }),
  );
}
const create = (ns: KubeObject) => attrsOf({ resource: 'namespaces', kind: 'Namespace', object: ns });
const update = (ns: KubeObject, old: KubeObject) =>
  attrsOf({
    operation: 'UPDATE',
    resource: 'namespaces',
    kind: 'Namespace',
    namespace: ns.metadata.name ?? '',
    object: ns,
    oldObject: old,
  });
const quiet = { warnings: [], annotations: {} };
const exemptConfig = {
  apiVersion: 'pod-security.admission.config.k8s.io/v1',
  kind: 'PodSecurityConfiguration',
  exemptions: { namespaces: ['kube-system'], runtimeClasses: ['kata'] },
};

test('creating a namespace with bad labels is refused as Invalid', async () => {
  const p = plugin([]);
  const one = await run(
    p,
    create(namespaceObject('ns', { 'pod-security.kubernetes.io/enforce': 'unknown' })),
  );
  assert.deepEqual(one.error, {
    code: 422,
    message:
      'Namespace "ns" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "unknown": must be one of privileged, baseline, restricted',
  });
  const two = await run(
    p,
    create(
      namespaceObject('ns', {
        ...psLabels({ enforce: 'privileged' }, 'v2'),
        'pod-security.kubernetes.io/warn': '',
      }),
    ),
  );
  assert.equal(
    two.error?.message,
    'Namespace "ns" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v2": must be "latest" or "v1.x", ' +
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "": must be one of privileged, baseline, restricted]',
  );
  assert.deepEqual(
    await run(
      p,
      create(namespaceObject('ns', psLabels({ enforce: 'restricted', warn: 'baseline' }, 'v1.25'))),
    ),
    quiet,
  );
});

test('updates must not introduce bad labels, but may keep the same bad ones', async () => {
  const p = plugin([]);
  const bad = namespaceObject('ns', { 'pod-security.kubernetes.io/audit': 'loud' });
  assert.deepEqual(await run(p, update(bad, bad)), quiet);
  const out = await run(p, update(bad, namespaceObject('ns')));
  assert.equal(
    out.error?.message,
    'Namespace "ns" is invalid: metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "loud": must be one of privileged, baseline, restricted',
  );
  const worse = namespaceObject('ns', { 'pod-security.kubernetes.io/audit': 'louder' });
  assert.equal(out.error?.code, 422);
  assert.equal((await run(p, update(worse, bad))).error?.code, 422);
  assert.deepEqual(
    await run(
      p,
      attrsOf({
        operation: 'UPDATE',
        resource: 'namespaces',
        kind: 'Namespace',
        subresource: 'status',
        object: bad,
        oldObject: namespaceObject('ns'),
      }),
    ),
    quiet,
  );
});

test('tightening enforce warns about existing pods, grouped by reasons', async () => {
  const host = { ...restrictedSpec(), hostNetwork: true };
  const owned = (uid: string) => ({
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }],
  });
  const pods = [
    podObject('web-b', 'ns', bareSpec(), owned('1')),
    podObject('web-a', 'ns', bareSpec(), owned('1')),
    podObject('web-c', 'ns', bareSpec(), owned('1')),
    podObject('solo', 'ns', host),
    podObject('fine', 'ns', restrictedSpec()),
    podObject('kata', 'ns', { ...bareSpec(), runtimeClassName: 'kata' }),
    podObject('elsewhere', 'other', bareSpec()),
  ];
  const p = plugin(pods, exemptConfig);
  const out = await run(
    p,
    update(
      namespaceObject('ns', psLabels({ enforce: 'restricted' })),
      namespaceObject('ns', psLabels({ enforce: 'baseline' })),
    ),
  );
  assert.deepEqual(out, {
    warnings: [
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
      'solo: host namespaces',
      'web-a (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ],
    annotations: {},
  });
  const lax = await run(
    p,
    update(namespaceObject('ns', psLabels({ enforce: 'baseline' }, 'v1.0')), namespaceObject('ns')),
  );
  assert.deepEqual(lax, {
    warnings: [
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.0"',
      'solo: host namespaces',
    ],
    annotations: {},
  });
  const baseline = await run(
    p,
    update(
      namespaceObject('ns', psLabels({ enforce: 'baseline' }, 'v1.0')),
      namespaceObject('ns', psLabels({ enforce: 'restricted' }, 'v1.0')),
    ),
  );
  assert.deepEqual(baseline, quiet, 'relaxing at the same version lists nothing');
});

test('no pod check when enforce is unchanged, privileged, or relaxed; the same counts for label-less defaults', async () => {
  let listed = 0;
  const deps = testDeps({
    objects: [{ group: '', resource: 'pods', object: podObject('p', 'ns', bareSpec()) }],
  });
  const p = podSecurityPlugin({
    ...deps,
    lookup: { ...deps.lookup, list: (gr, ns) => (listed++, deps.lookup.list(gr, ns)) },
  });
  const ns = (labels: Record<string, string>) => namespaceObject('ns', labels);
  const cases: [Record<string, string>, Record<string, string>][] = [
    [psLabels({ enforce: 'restricted' }, 'v1.0'), psLabels({ enforce: 'restricted' }, 'v1.0')],
    [psLabels({ enforce: 'baseline' }), psLabels({ enforce: 'restricted' })],
    [psLabels({ enforce: 'privileged' }), psLabels({ enforce: 'restricted' }, 'v1.0')],
    [{}, psLabels({ enforce: 'restricted' })],
    [psLabels({ warn: 'restricted', audit: 'restricted' }), {}],
  ];
  for (const [now, before] of cases) assert.deepEqual(await run(p, update(ns(now), ns(before))), quiet);
  assert.equal(listed, 0);
  const changedVersion = await run(
    p,
    update(ns(psLabels({ enforce: 'baseline' }, 'v1.0')), ns(psLabels({ enforce: 'restricted' }, 'v1.1'))),
  );
  assert.deepEqual(changedVersion, quiet);
  assert.equal(listed, 1);
});

test('labels on an exempt namespace warn that they are ignored (on update: a create names no request namespace)', async () => {
  const p = plugin([podObject('p', 'kube-system', bareSpec())], exemptConfig);
  const labels = {
    ...psLabels({ enforce: 'restricted' }, 'v1.0'),
    ...psLabels({ audit: 'restricted', warn: 'baseline' }),
  };
  const out = await run(p, update(namespaceObject('kube-system', labels), namespaceObject('kube-system')));
  assert.deepEqual(out, {
    warnings: [
      'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored',
    ],
    annotations: {},
  });
  assert.deepEqual(await run(p, create(namespaceObject('kube-system', labels))), quiet);
  const named = await run(p, { ...create(namespaceObject('kube-system', labels)), namespace: 'kube-system' });
  assert.equal(named.warnings.length, 1);
});
