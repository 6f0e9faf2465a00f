/**
 * At start-up the server creates API Priority and Fairness' bootstrap configuration as
 * kube-apiserver v1.27 does (the suggested and mandatory priority levels and flow schemas), and a
 * restart on the same data dir neither duplicates them nor fails.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const base = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';

const levelNames = [
  'catch-all',
  'exempt',
  'global-default',
  'leader-election',
  'node-high',
  'system',
  'workload-high',
  'workload-low',
];
const schemaNames = [
  'catch-all',
  'endpoint-controller',
  'exempt',
  'global-default',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-system-service-accounts',
  'probes',
  'service-accounts',
  'system-leader-election',
  'system-node-high',
  'system-nodes',
  'workload-leader-election',
];

interface Item {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}

async function list(server: TestServer, resource: string): Promise<Item[]> {
  const res = await server.request('GET', `${base}/${resource}`);
  assert.equal(res.status, 200, res.text);
  return res.json<{ items: Item[] }>().items;
}

const sortedNames = (items: readonly Item[]): string[] => items.map((i) => i.metadata.name).sort();

test('the bootstrap levels and schemas are served, and survive a restart unchanged', async () => {
  const first = await startTestServer({ controllers: false });
  const dataDir = first.dataDir;
  let levels: Item[];
  let schemas: Item[];
  try {
    levels = await list(first, 'prioritylevelconfigurations');
    schemas = await list(first, 'flowschemas');
    assert.deepEqual(sortedNames(levels), levelNames);
    assert.deepEqual(sortedNames(schemas), schemaNames);
    for (const o of [...levels, ...schemas]) {
      assert.equal(o.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true', o.metadata.name);
    }
    const probes = schemas.find((s) => s.metadata.name === 'probes');
    assert.deepEqual(probes?.spec['priorityLevelConfiguration'], { name: 'exempt' });
    assert.equal(probes?.spec['matchingPrecedence'], 2);
    const exempt = await first.request('GET', `${base}/prioritylevelconfigurations/exempt`);
    assert.equal(exempt.status, 200, exempt.text);
    assert.deepEqual(exempt.json()['spec'], { type: 'Exempt' });
  } finally {
    await first.stop({ keep: true });
  }

  const second = await startTestServer({ controllers: false, dataDir });
  try {
    const levelsAgain = await list(second, 'prioritylevelconfigurations');
    const schemasAgain = await list(second, 'flowschemas');
    assert.deepEqual(sortedNames(levelsAgain), levelNames);
    assert.deepEqual(sortedNames(schemasAgain), schemaNames);
    // The same objects, not re-created ones.
    const uids = (items: readonly Item[]): string[] => items.map((i) => i.metadata.uid).sort();
    assert.deepEqual(uids(levelsAgain), uids(levels));
    assert.deepEqual(uids(schemasAgain), uids(schemas));
  } finally {
    await second.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
