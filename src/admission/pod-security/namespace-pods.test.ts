import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { PodSecurityContext } from './context.js';
import { defaultChecks } from './default-checks.js';
import { Evaluator } from './evaluator.js';
import { Exemptions } from './exemptions.js';
import { evaluatePodsInNamespace } from './namespace-pods.js';
import { bareSpec, podObject, restrictedSpec } from './testing/helpers.js';

const restrictedLatest = { level: 'restricted', version: 'latest' } as const;
const host = { ...restrictedSpec(), hostIPC: true };

function ctx(
  pods: readonly KubeObject[] | Error,
  more: Partial<PodSecurityContext> = {},
): PodSecurityContext {
  const privileged = { level: 'privileged', version: 'latest' } as const;
  return {
    defaultPolicy: { enforce: privileged, audit: privileged, warn: privileged },
    exemptions: new Exemptions({ usernames: [], namespaces: [], runtimeClasses: ['kata'] }),
    evaluator: new Evaluator(defaultChecks),
    getNamespace: () => Promise.resolve(undefined),
    listPods: () => (pods instanceof Error ? Promise.reject(pods) : Promise.resolve(pods)),
    now: () => 0,
    namespaceMaxPodsToCheck: 4,
    namespacePodCheckTimeoutMs: 1000,
    ...more,
  };
}
const owned = (uid: string) => ({
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }],
});

test('one pod per controller first, exempt runtime classes skipped, at most the limit checked', async () => {
  const pods = [
    podObject('kata1', 'ns', { ...bareSpec(), runtimeClassName: 'kata' }),
    podObject('rs1-a', 'ns', bareSpec(), owned('1')),
    podObject('rs1-b', 'ns', bareSpec(), owned('1')),
    podObject('rs1-c', 'ns', bareSpec(), owned('1')),
    podObject('rs2-a', 'ns', host, owned('2')),
    podObject('rs2-b', 'ns', host, owned('2')),
    podObject('unique-b', 'ns', host),
    podObject('unique-a', 'ns', host),
  ];
  assert.deepEqual(await evaluatePodsInNamespace(ctx(pods), 'ns', restrictedLatest), [
    'new PodSecurity enforce level only checked against the first 4 of 7 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'rs1-a: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'rs2-a (and 2 other pods): host namespaces',
  ]);
});

test('the time budget stops the check between pods', async () => {
  let t = 0;
  const pods = ['a', 'b', 'c'].map((n) => podObject(n, 'ns', host));
  const tick = ctx(pods, { now: () => (t += 600) });
  assert.deepEqual(await evaluatePodsInNamespace(tick, 'ns', restrictedLatest), [
    // the deadline is 1600 (start 600 + 1000); the clock reads 1200 after a, 1800 after b
    'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'a (and 1 other pod): host namespaces',
  ]);
});

test('a failed pod list is one warning; compliant pods none', async () => {
  assert.deepEqual(await evaluatePodsInNamespace(ctx(new Error('boom')), 'ns', restrictedLatest), [
    'failed to list pods while checking new PodSecurity enforce level',
  ]);
  assert.deepEqual(
    await evaluatePodsInNamespace(ctx([podObject('a', 'ns', restrictedSpec())]), 'ns', restrictedLatest),
    [],
  );
});
