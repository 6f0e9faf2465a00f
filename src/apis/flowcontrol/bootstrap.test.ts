import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootstrapFlowcontrolObjects } from './bootstrap.js';
import { defaultFlowSchema, defaultPriorityLevelConfigurationV1beta3 } from './defaults.js';
import { mandatoryFlowSchemaSpec, mandatoryPriorityLevelConfigurationSpec } from './mandatory.js';
import { validateFlowSchema, validatePriorityLevelConfiguration } from './validation.js';

const names = (objects: readonly { metadata: { name?: string } }[]): (string | undefined)[] =>
  objects.map((o) => o.metadata.name);
const byName = <T extends { metadata: { name?: string } }>(objects: readonly T[], name: string): T => {
  const found = objects.find((o) => o.metadata.name === name);
  assert.ok(found, name);
  return found;
};

test('the v1.27 bootstrap objects: suggested then mandatory, levels and schemas', () => {
  const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
  assert.deepEqual(names(priorityLevels), [
    'system',
    'node-high',
    'leader-election',
    'workload-high',
    'workload-low',
    'global-default',
    'catch-all',
    'exempt',
  ]);
  assert.deepEqual(names(flowSchemas), [
    'system-nodes',
    'system-node-high',
    'probes',
    'system-leader-election',
    'workload-leader-election',
    'endpoint-controller',
    'kube-controller-manager',
    'kube-scheduler',
    'kube-system-service-accounts',
    'service-accounts',
    'global-default',
    'exempt',
    'catch-all',
  ]);
  for (const o of [...priorityLevels, ...flowSchemas]) {
    assert.equal(o.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta3');
    assert.deepEqual(o.metadata.annotations, { 'apf.kubernetes.io/autoupdate-spec': 'true' });
    assert.equal(o['status'], undefined);
  }
  // Every schema references a bootstrap level.
  const levels = new Set(names(priorityLevels));
  for (const fs of flowSchemas) {
    const ref = (fs['spec'] as { priorityLevelConfiguration: { name: string } }).priorityLevelConfiguration;
    assert.ok(levels.has(ref.name), ref.name);
  }
  // Fresh copies on every call.
  assert.notEqual(bootstrapFlowcontrolObjects().flowSchemas[0], flowSchemas[0]);
});

test('a few exact specs', () => {
  const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
  assert.deepEqual(byName(priorityLevels, 'leader-election')['spec'], {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 10,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } },
    },
  });
  assert.deepEqual(byName(priorityLevels, 'workload-low')['spec'], {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 100,
      lendablePercent: 90,
      limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
    },
  });
  assert.deepEqual(byName(flowSchemas, 'probes')['spec'], {
    priorityLevelConfiguration: { name: 'exempt' },
    matchingPrecedence: 2,
    rules: [
      {
        subjects: [
          { kind: 'Group', group: { name: 'system:unauthenticated' } },
          { kind: 'Group', group: { name: 'system:authenticated' } },
        ],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      },
    ],
  });
  assert.deepEqual(byName(flowSchemas, 'system-leader-election')['spec'], {
    priorityLevelConfiguration: { name: 'leader-election' },
    matchingPrecedence: 100,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [
          { kind: 'User', user: { name: 'system:kube-controller-manager' } },
          { kind: 'User', user: { name: 'system:kube-scheduler' } },
          { kind: 'ServiceAccount', serviceAccount: { name: '*', namespace: 'kube-system' } },
        ],
        resourceRules: [
          {
            verbs: ['get', 'create', 'update'],
            apiGroups: ['coordination.k8s.io'],
            resources: ['leases'],
            namespaces: ['*'],
          },
        ],
      },
    ],
  });
  assert.deepEqual(byName(flowSchemas, 'kube-system-service-accounts')['spec'], {
    priorityLevelConfiguration: { name: 'workload-high' },
    matchingPrecedence: 900,
    distinguisherMethod: { type: 'ByNamespace' },
    rules: [
      {
        subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: '*', namespace: 'kube-system' } }],
        resourceRules: [
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
        ],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      },
    ],
  });
});

test('the mandatory objects carry exactly the fixed specs', () => {
  const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
  for (const name of ['exempt', 'catch-all']) {
    assert.deepEqual(byName(priorityLevels, name)['spec'], mandatoryPriorityLevelConfigurationSpec(name));
    assert.deepEqual(byName(flowSchemas, name)['spec'], mandatoryFlowSchemaSpec(name));
  }
});

test('every object validates, and defaulting changes nothing (as upstream guarantees)', () => {
  const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
  for (const plc of priorityLevels) {
    assert.deepEqual(validatePriorityLevelConfiguration(plc).map(String), [], plc.metadata.name);
    assert.deepEqual(validatePriorityLevelConfiguration(plc, 'v1beta3').map(String), [], plc.metadata.name);
    const defaulted = structuredClone(plc);
    defaultPriorityLevelConfigurationV1beta3(defaulted);
    assert.deepEqual(defaulted, plc, plc.metadata.name);
  }
  for (const fs of flowSchemas) {
    assert.deepEqual(validateFlowSchema(fs).map(String), [], fs.metadata.name);
    const defaulted = structuredClone(fs);
    defaultFlowSchema(defaulted);
    assert.deepEqual(defaulted, fs, fs.metadata.name);
  }
});
