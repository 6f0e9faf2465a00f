/**
 * With kubectl 1.27: the four walk-throughs of a new user, word for word as
 * kube-apiserver v1.27 answers them — a pod quota refusing the second pod, a LimitRange's
 * defaults, the ServiceAccount and Priority plugins' fields on a plain `kubectl run`, and Pod
 * Security's `restricted` enforcement.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

interface PodJson {
  metadata: { annotations?: Record<string, string> };
  spec: {
    serviceAccountName?: string;
    serviceAccount?: string;
    priority?: number;
    preemptionPolicy?: string;
    volumes?: { name: string; projected?: { sources: unknown[] } }[];
    containers: {
      volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
      resources?: unknown;
    }[];
  };
}

describe('kubectl 1.27 and the built-in admission plugins', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '0'] });

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  it('a quota of one pod refuses the second `kubectl run` with upstream words', async () => {
    await s.ok(['create', 'namespace', 'q']);
    await s.namespaceReady('q');
    assert.equal(
      await s.ok(['create', 'quota', 'small', '--hard=pods=1', '-n', 'q']),
      'resourcequota/small created\n',
    );
    await until(
      async () =>
        (await s.ok(['get', 'quota', 'small', '-n', 'q', '-o', 'jsonpath={.status.used.pods}'])) === '0',
      'the quota controller to compute usage',
    );
    assert.equal(await s.ok(['run', 'a', '--image=nginx', '-n', 'q']), 'pod/a created\n');
    const second = await s.run(['run', 'b', '--image=nginx', '-n', 'q']);
    assert.equal(second.code, 1);
    assert.equal(
      second.stderr,
      'Error from server (Forbidden): pods "b" is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1\n',
    );
    assert.equal(
      await s.ok([
        'get',
        'quota',
        'small',
        '-n',
        'q',
        '-o',
        'jsonpath={.status.used.pods}/{.status.hard.pods}',
      ]),
      '1/1',
    );
  });

  it("a LimitRange's default and defaultRequest reach new pods' containers", async () => {
    await s.ok(['create', 'namespace', 'lr']);
    await s.namespaceReady('lr');
    const limits = s.kubectl.file(
      'limits.yaml',
      [
        'apiVersion: v1',
        'kind: LimitRange',
        'metadata: {name: defaults, namespace: lr}',
        'spec:',
        '  limits:',
        '  - type: Container',
        '    default: {cpu: 500m, memory: 256Mi}',
        '    defaultRequest: {cpu: 100m, memory: 128Mi}',
        '',
      ].join('\n'),
    );
    await s.ok(['apply', '-f', limits]);
    await until(async () => {
      await s.run(['delete', 'pod', 'l', '-n', 'lr', '--ignore-not-found', '--wait=false']);
      await s.ok(['run', 'l', '--image=nginx', '-n', 'lr']);
      const pod = JSON.parse(await s.ok(['get', 'pod', 'l', '-n', 'lr', '-o', 'json'])) as PodJson;
      return (
        pod.spec.containers[0]!.resources !== undefined &&
        JSON.stringify(pod.spec.containers[0]!.resources) !== '{}'
      );
    }, 'the LimitRange to reach the admission cache');
    const pod = JSON.parse(await s.ok(['get', 'pod', 'l', '-n', 'lr', '-o', 'json'])) as PodJson;
    assert.deepEqual(pod.spec.containers[0]!.resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    });
    assert.equal(
      pod.metadata.annotations?.['kubernetes.io/limit-ranger'],
      'LimitRanger plugin set: cpu, memory request for container l; cpu, memory limit for container l',
    );
  });

  it('`kubectl run` gets the default service account, its token volume and a priority', async () => {
    await s.ok(['run', 'plain', '--image=nginx']);
    const pod = JSON.parse(await s.ok(['get', 'pod', 'plain', '-o', 'json'])) as PodJson;
    assert.equal(pod.spec.serviceAccountName, 'default');
    assert.equal(pod.spec.serviceAccount, 'default');
    assert.equal(pod.spec.priority, 0);
    assert.equal(pod.spec.preemptionPolicy, 'PreemptLowerPriority');
    const volume = pod.spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'));
    assert.ok(volume !== undefined, JSON.stringify(pod.spec.volumes));
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.equal(volume.projected?.sources.length, 3);
    assert.deepEqual(pod.spec.containers[0]!.volumeMounts, [
      { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume.name, readOnly: true },
    ]);
  });

  it('a namespace labelled enforce=restricted refuses a plain nginx pod with each violated check', async () => {
    await s.ok(['create', 'namespace', 'psa']);
    await s.namespaceReady('psa');
    assert.equal(
      await s.ok(['label', 'ns', 'psa', 'pod-security.kubernetes.io/enforce=restricted']),
      'namespace/psa labeled\n',
    );
    await until(async () => {
      const r = await s.run(['run', 'e', '--image=nginx', '-n', 'psa', '--dry-run=server']);
      return r.code !== 0;
    }, 'the label to reach the admission cache');
    const r = await s.run(['run', 'e', '--image=nginx', '-n', 'psa']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server (Forbidden): pods "e" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "e" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "e" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "e" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "e" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
    // warn mode: allowed, with the same checks as a warning.
    await s.ok([
      'label',
      'ns',
      'psa',
      'pod-security.kubernetes.io/enforce-',
      'pod-security.kubernetes.io/warn=restricted',
    ]);
    await until(async () => {
      const w = await s.run(['run', 'w', '--image=nginx', '-n', 'psa', '--dry-run=server']);
      return w.code === 0;
    }, 'the label change to reach the admission cache');
    const w = await s.run(['run', 'w', '--image=nginx', '-n', 'psa']);
    assert.equal(w.code, 0, w.stderr);
    assert.equal(
      w.stderr,
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "w" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "w" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "w" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "w" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
  });

  it('labelling a namespace warns about its existing pods; workloads are warned about, not refused', async () => {
    await s.ok(['create', 'namespace', 'psa2']);
    await s.namespaceReady('psa2');
    await s.ok(['run', 'old', '--image=nginx', '-n', 'psa2']);
    const labelled = await s.run(['label', 'ns', 'psa2', 'pod-security.kubernetes.io/enforce=baseline']);
    assert.equal(labelled.code, 0, labelled.stderr);
    // nginx with defaults meets baseline: no warning.
    assert.equal(labelled.stderr, '');
    const restricted = await s.run([
      'label',
      '--overwrite',
      'ns',
      'psa2',
      'pod-security.kubernetes.io/enforce=restricted',
    ]);
    assert.equal(restricted.code, 0, restricted.stderr);
    assert.equal(
      restricted.stderr,
      [
        'Warning: existing pods in namespace "psa2" violate the new PodSecurity enforce level "restricted:latest"',
        'Warning: old: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
        '',
      ].join('\n'),
    );
    assert.equal(restricted.stdout, 'namespace/psa2 labeled\n');
    const deployment = await s.run(['create', 'deployment', 'web', '--image=nginx', '-n', 'psa2']);
    assert.equal(deployment.code, 0, deployment.stderr);
    assert.equal(
      deployment.stderr,
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
  });

  itStopsCleanly(s);
});
