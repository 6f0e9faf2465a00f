/**
 * Scheduling.k8s.io/v1 PriorityClass, node.k8s.io/v1 RuntimeClass and policy/v1
 * PodDisruptionBudget (+status) served through the runtime-registration seam, end to end:
 * defaulting, validation Status messages, strategies, Table output and discovery.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { v127Gates } from '../../src/machinery/features.js';
import { nodeV1Resources } from '../../src/registry/resources/node/index.js';
import { policyV1Resources } from '../../src/registry/resources/policy/index.js';
import {
  schedulingV1Resources,
  systemPriorityClasses,
} from '../../src/registry/resources/scheduling/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default/discovery');
const skipRef = existsSync(refDir)
  ? false
  : `reference data absent (${refDir}); run inside the nanokube workspace`;
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
const rcs = '/apis/node.k8s.io/v1/runtimeclasses';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

interface Obj {
  metadata: { name: string; generation?: number; resourceVersion: string; labels?: Record<string, string> };
  [k: string]: unknown;
}
interface TableBody {
  columnDefinitions: { name: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

let s: TestServer;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
  for (const r of [...schedulingV1Resources, ...nodeV1Resources, ...policyV1Resources]) s.resources.add(r);
});
after(() => s.stop());

describe('PriorityClass', () => {
  it('creates with the default preemption policy and generation 1, lists, prints and patches', async () => {
    const created = await s.request('POST', pcs, {
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high' },
        value: 1000,
      },
    });
    assert.equal(created.status, 201, created.text);
    const pc = created.json<Obj>();
    assert.equal(pc['preemptionPolicy'], 'PreemptLowerPriority');
    assert.equal(pc.metadata.generation, 1);
    assert.equal(pc['globalDefault'], undefined);

    const list = (await s.request('GET', pcs)).json<{ items: Obj[] }>();
    // The server keeps the two system classes from its first start on.
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['high', 'system-cluster-critical', 'system-node-critical'],
    );
    const t = (await s.request('GET', `${pcs}/high`, { accept: table })).json<TableBody>();
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Value', 'Global-Default', 'Age'],
    );
    assert.deepEqual(t.rows[0]!.cells.slice(0, 3), ['high', 1000, false]);

    const patched = await s.request('PATCH', `${pcs}/high`, {
      contentType: 'application/merge-patch+json',
      body: { description: 'for important pods', globalDefault: true },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json<Obj>().metadata.generation, 1, 'PriorityClass never bumps its generation');
  });

  it('rejects a changed value or policy, reserved names and user values above 1e9', async () => {
    const changed = await s.request('PATCH', `${pcs}/high`, {
      contentType: 'application/merge-patch+json',
      body: { value: 5, preemptionPolicy: 'Never' },
    });
    assert.equal(changed.status, 422);
    assert.equal(
      changed.json()['message'],
      'PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "Never": field is immutable]',
    );
    const reserved = await s.request('POST', pcs, {
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'system-mine' },
        value: 1,
      },
    });
    assert.equal(reserved.status, 422);
    assert.equal(
      reserved.json()['message'],
      `PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class`,
    );
    const tooHigh = await s.request('POST', pcs, {
      body: {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'huge' },
        value: 1000000001,
      },
    });
    assert.equal(
      tooHigh.json()['message'],
      'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
  });

  it('the server creates the system classes at start-up as upstream does; they cannot be deleted', async () => {
    for (const pc of systemPriorityClasses()) {
      const r = await s.request('GET', `${pcs}/${pc.metadata.name ?? ''}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json()['value'], pc['value']);
      assert.equal(r.json()['description'], pc['description']);
    }
    const del = await s.request('DELETE', `${pcs}/system-node-critical`);
    assert.equal(del.status, 403);
    assert.equal(
      del.json()['message'],
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
    assert.equal((await s.request('DELETE', `${pcs}/high`)).status, 200);
    assert.equal((await s.request('GET', `${pcs}/high`)).status, 404);
  });
});

describe('RuntimeClass', () => {
  const rc = (handler: string, rv?: string): Record<string, unknown> => ({
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'gvisor', ...(rv === undefined ? {} : { resourceVersion: rv }) },
    handler,
    overhead: { podFixed: { cpu: '250m' } },
  });

  it('is created by PUT, needs a resourceVersion to update, and keeps its handler', async () => {
    const created = await s.request('PUT', `${rcs}/gvisor`, { body: rc('runsc') });
    assert.equal(created.status, 201, created.text);
    const noRv = await s.request('PUT', `${rcs}/gvisor`, { body: rc('runsc') });
    assert.equal(noRv.status, 422);
    assert.equal(
      noRv.json()['message'],
      'RuntimeClass.node.k8s.io "gvisor" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );
    const rv = created.json<Obj>().metadata.resourceVersion;
    const handler = await s.request('PUT', `${rcs}/gvisor`, { body: rc('kata', rv) });
    assert.equal(
      handler.json()['message'],
      'RuntimeClass.node.k8s.io "gvisor" is invalid: handler: Invalid value: "kata": field is immutable',
    );
    const label = await s.request('PUT', `${rcs}/gvisor`, {
      body: { ...rc('runsc', rv), metadata: { name: 'gvisor', resourceVersion: rv, labels: { a: 'b' } } },
    });
    assert.equal(label.status, 200, label.text);
    assert.equal(label.json<Obj>().metadata.generation, undefined);
  });

  it('validates the handler, overhead and scheduling, and prints NAME HANDLER AGE', async () => {
    const bad = await s.request('POST', rcs, {
      body: {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'bad' },
        handler: 'a.b',
        scheduling: { tolerations: [{ key: 'k', operator: 'Maybe' }] },
      },
    });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json()['message'],
      'RuntimeClass.node.k8s.io "bad" is invalid: [handler: Invalid value: "a.b": must not contain dots, scheduling.tolerations[0].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"]',
    );
    const t = (await s.request('GET', rcs, { accept: table })).json<TableBody>();
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Handler', 'Age'],
    );
    assert.deepEqual(t.rows[0]!.cells.slice(0, 2), ['gvisor', 'runsc']);
  });
});

describe('PodDisruptionBudget', () => {
  const pdb = (spec: Record<string, unknown>, name = 'web'): Record<string, unknown> => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name },
    spec,
  });

  it('starts with a zero status and generation 1; spec changes bump it, status writes do not', async () => {
    const created = await s.request('POST', pdbs, {
      body: {
        ...pdb({ minAvailable: 2, selector: { matchLabels: { app: 'web' } } }),
        status: { expectedPods: 9 },
      },
    });
    assert.equal(created.status, 201, created.text);
    const obj = created.json<Obj>();
    assert.deepEqual(obj['status'], {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
    assert.equal(obj.metadata.generation, 1);

    const noRv = await s.request('PUT', `${pdbs}/web`, { body: pdb({ minAvailable: 3 }) });
    assert.equal(noRv.status, 422, 'updates need a resourceVersion');

    const patched = await s.request('PATCH', `${pdbs}/web`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { minAvailable: '50%' }, status: { expectedPods: 4 } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json<Obj>().metadata.generation, 2);
    assert.equal((patched.json<Obj>()['status'] as Record<string, number>)['expectedPods'], 0);

    const status = await s.request('PATCH', `${pdbs}/web/status`, {
      contentType: 'application/merge-patch+json',
      body: {
        metadata: { labels: { via: 'status' } },
        spec: { minAvailable: 1 },
        status: {
          observedGeneration: 2,
          disruptionsAllowed: 1,
          currentHealthy: 3,
          desiredHealthy: 2,
          expectedPods: 3,
        },
      },
    });
    assert.equal(status.status, 200, status.text);
    const after = status.json<Obj>();
    assert.equal((after['spec'] as Record<string, unknown>)['minAvailable'], '50%', '/status keeps the spec');
    assert.deepEqual(after.metadata.labels, { via: 'status' }, 'and metadata changes, as upstream');
    assert.equal(after.metadata.generation, 2);

    const badStatus = await s.request('PATCH', `${pdbs}/web/status`, {
      contentType: 'application/merge-patch+json',
      body: { status: { disruptionsAllowed: -1 } },
    });
    assert.equal(badStatus.status, 422);
    assert.equal(
      badStatus.json()['message'],
      'PodDisruptionBudget.policy "web" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    );

    const t = (await s.request('GET', pdbs, { accept: table })).json<TableBody>();
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    );
    assert.deepEqual(t.rows[0]!.cells.slice(0, 4), ['web', '50%', 'N/A', 1]);
  });

  it('rejects both budgets at once, with upstream message', async () => {
    const r = await s.request('POST', pdbs, { body: pdb({ minAvailable: 1, maxUnavailable: 1 }, 'both') });
    assert.equal(r.status, 422);
    assert.equal(
      r.json()['message'],
      'PodDisruptionBudget.policy "both" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    );
  });

  it('keeps unhealthyPodEvictionPolicy when its gate is on (dropped while the gate list lacks it)', async () => {
    const r = await s.request('POST', pdbs, {
      body: pdb({ maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }, 'policy'),
    });
    assert.equal(r.status, 201, r.text);
    const spec = r.json<Obj>()['spec'] as Record<string, unknown>;
    const gateKnown = v127Gates['PDBUnhealthyPodEvictionPolicy'] !== undefined;
    assert.equal(spec['unhealthyPodEvictionPolicy'], gateKnown ? 'AlwaysAllow' : undefined);
    const bad = await s.request('POST', pdbs, {
      body: pdb({ maxUnavailable: 1, unhealthyPodEvictionPolicy: 'Never' }, 'bad-policy'),
    });
    if (gateKnown) {
      assert.equal(
        bad.json()['message'],
        'PodDisruptionBudget.policy "bad-policy" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
      );
    } else {
      // A disabled gate drops the field before validation, as upstream's dropDisabledFields does.
      assert.equal(bad.status, 201, bad.text);
    }
  });
});

describe('discovery', () => {
  it('matches the reference server', { skip: skipRef }, async () => {
    for (const [path, file] of [
      ['/apis/scheduling.k8s.io/v1', 'apis_scheduling.k8s.io_v1.json'],
      ['/apis/node.k8s.io/v1', 'apis_node.k8s.io_v1.json'],
      ['/apis/policy/v1', 'apis_policy_v1.json'],
    ] as const) {
      const ours = (await s.request('GET', path)).json<{ resources: unknown[] }>();
      const ref = JSON.parse(readFileSync(join(refDir, file), 'utf8')) as { resources: unknown[] };
      assert.deepEqual(ours.resources, ref.resources, path);
    }
  });
});
