import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages } from '../../../apis/apps/v1/testdata/fixtures.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../strategy.js';
import { policyV1Resources } from './index.js';

const [pdbs] = policyV1Resources;
const gateOff: StrategyContext = { namespace: 'default', features: { enabled: () => false } };

function pdb(spec: KubeObject['spec'], generation?: number): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default', ...(generation === undefined ? {} : { generation }) },
    spec: spec ?? {},
  };
}

test('create resets status to its zero counts and starts generation at 1', () => {
  const s = pdbs!.strategy;
  assert.equal(s.allowUnconditionalUpdate, false);
  assert.equal(s.allowCreateOnUpdate, false);
  assert.equal(s.nameValidation, 'pathSegment');
  const obj = { ...pdb({ minAvailable: 1 }), status: { disruptionsAllowed: 5 } };
  s.prepareForCreate(ctx, obj);
  assert.deepEqual(obj.status, {
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    expectedPods: 0,
  });
  assert.equal(obj.metadata.generation, 1);
});

test('spec changes bump the generation; status is kept from the stored object', () => {
  const s = pdbs!.strategy;
  const old = { ...pdb({ minAvailable: 1 }, 3), status: { disruptionsAllowed: 2 } };
  const same = { ...pdb({ minAvailable: 1 }, 3), status: { disruptionsAllowed: 9 } };
  s.prepareForUpdate(ctx, same, old);
  assert.equal(same.metadata.generation, 3);
  assert.deepEqual(same.status, { disruptionsAllowed: 2 });
  const changed = pdb({ minAvailable: 2 }, 3);
  s.prepareForUpdate(ctx, changed, old);
  assert.equal(changed.metadata.generation, 4);
});

test('unhealthyPodEvictionPolicy is dropped while its gate is off, unless already stored', () => {
  const s = pdbs!.strategy;
  const on = pdb({ unhealthyPodEvictionPolicy: 'AlwaysAllow' });
  s.prepareForCreate(ctx, on);
  assert.equal(on['spec']!['unhealthyPodEvictionPolicy' as never], 'AlwaysAllow');
  const off = pdb({ unhealthyPodEvictionPolicy: 'AlwaysAllow' });
  s.prepareForCreate(gateOff, off);
  assert.deepEqual(off['spec'], {});
  const kept = pdb({ unhealthyPodEvictionPolicy: 'IfHealthyBudget' }, 1);
  s.prepareForUpdate(gateOff, kept, pdb({ unhealthyPodEvictionPolicy: 'AlwaysAllow' }, 1));
  assert.deepEqual(kept['spec'], { unhealthyPodEvictionPolicy: 'IfHealthyBudget' });
});

test('update keeps stored invalid selector values valid; /status only writes status', () => {
  const bad = { matchExpressions: [{ key: 'k', operator: 'In', values: ['a b'] }] };
  assert.equal(pdbs!.strategy.validate(ctx, pdb({ selector: bad })).length, 1);
  assert.deepEqual(pdbs!.strategy.validateUpdate(ctx, pdb({ selector: bad }), pdb({ selector: bad })), []);
  const st = pdbs!.statusStrategy!;
  const old = { ...pdb({ minAvailable: 1 }, 2), status: { disruptionsAllowed: 0 } };
  const req: KubeObject = {
    ...pdb({ minAvailable: 5 }, 2),
    metadata: { name: 'web', namespace: 'default', generation: 2, labels: { a: 'b' } },
    status: { disruptionsAllowed: -1 },
  };
  st.prepareForUpdate(ctx, req, old);
  assert.deepEqual(req['spec'], { minAvailable: 1 });
  assert.deepEqual(req.metadata.labels, { a: 'b' }, 'metadata changes through /status are kept');
  assert.equal(req.metadata.generation, 2);
  assert.deepEqual(messages(st.validateUpdate(ctx, req, old)), [
    'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
  ]);
});
