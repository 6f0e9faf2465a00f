/**
 * kubectl 1.27 `explain` shows our own descriptions: kinds, their top-level fields and the
 * nested fields people explain most, through OpenAPI v3 (kubectl 1.27's default) and through
 * OpenAPI v2 (`--output=plaintext-openapiv2`, read from the protobuf document). A field without a
 * description shows kubectl's `<empty>` / `<no description>` as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

/** kubectl wraps text at 80 columns; compare with whitespace collapsed. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

describe('kubectl 1.27 explain shows our descriptions', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  for (const [mode, flags] of [
    ['OpenAPI v3', []],
    ['OpenAPI v2', ['--output=plaintext-openapiv2']],
  ] as const) {
    it(`pod.spec.containers.livenessProbe (${mode})`, async () => {
      const out = await s.ok(['explain', 'pod.spec.containers.livenessProbe', ...flags]);
      const f = flat(out);
      assert.ok(
        f.includes('A check run periodically; when it fails often enough, the container is restarted.'),
        out,
      );
      assert.ok(f.includes('A check the kubelet runs against a container at intervals.'), out);
      assert.ok(f.includes('Seconds between checks. Defaults to 10; at least 1.'), out);
      assert.ok(f.includes('Call the standard gRPC health checking service'), out);
    });
  }

  it('kinds and their top-level fields', async () => {
    const out = flat(await s.ok(['explain', 'deployments']));
    assert.ok(out.includes('A deployment declares a desired pod template and replica count'), out);
    assert.ok(out.includes('The desired state of the object, written by its users.'), out);
    const cm = flat(await s.ok(['explain', 'configmaps']));
    assert.ok(cm.includes('When true, data and binaryData can no longer change'), cm);
  });

  it('nested fields: workload strategies, StatefulSet ordinals, Service spec, affinity, volumes', async () => {
    const cases: [string, string][] = [
      ['deployment.spec.strategy.rollingUpdate.maxSurge', 'How many pods may exist above the desired count'],
      [
        'statefulset.spec.ordinals.start',
        'The first ordinal: replicas N give pods numbered start to start+N-1.',
      ],
      ['daemonset.spec.updateStrategy.type', 'node by node'],
      ['cronjob.spec.timeZone', 'The time zone the schedule is read in'],
      ['job.spec.podFailurePolicy', 'Rules deciding, from exit codes or pod conditions'],
      ['service.spec.externalTrafficPolicy', 'only to pods on the receiving node'],
      ['service.spec.ports.targetPort', 'The pod port traffic goes to'],
      [
        'pod.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution.topologyKey',
        'nodes with the same value form one domain',
      ],
      ['pod.spec.tolerations.tolerationSeconds', 'how long the pod may stay after the taint appears'],
      ['pod.spec.volumes.emptyDir.medium', 'a tmpfs, counted against the container'],
      ['pod.spec.containers.resources.limits', 'Exceeding the memory limit gets it killed'],
      ['pod.spec.securityContext.fsGroup', 'group-owned by it and group-writable'],
      ['pod.metadata.ownerReferences', 'the garbage collector deletes the object'],
    ];
    for (const [path, text] of cases) {
      const out = await s.ok(['explain', path]);
      assert.ok(flat(out).includes(text), `explain ${path}: expected "${text}" in\n${out}`);
    }
  });

  it('a field without a description says so', async () => {
    // ContainerStateWaiting is one of the types we have not described (yet).
    const out = await s.ok(['explain', 'pod.status.containerStatuses.state.waiting']);
    assert.match(out, /^DESCRIPTION:\n {4}<empty>$/m, out);
    assert.match(out, /^ {2}reason\t<string>\n {4}<no description>$/m, out);
  });

  itStopsCleanly(s);
});
