import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemas } from './builtin.js';
import { createSchemaRegistry, schemaAt } from './registry.js';
import { def, map, obj, ref, str, arr, any } from './dsl.js';

describe('createSchemaRegistry', () => {
  const reg = createSchemaRegistry([
    def('A', obj({ b: ref('B'), tags: map(str()), list: arr(ref('B')), free: any() })),
    def('B', obj({ name: str() })),
    def('C', ref('B')),
  ]);
  it('gets and resolves definitions', () => {
    assert.equal(reg.get('B')?.name, 'B');
    assert.equal(reg.get('nope'), undefined);
    assert.deepEqual(reg.resolve(ref('C')), obj({ name: str() }));
    assert.throws(() => reg.resolve(ref('missing')), /unknown schema definition missing/);
    assert.equal([...reg.all()].length, 3);
  });
  it('rejects duplicates', () => {
    assert.throws(() => createSchemaRegistry([def('X', str()), def('X', str())]), /duplicate/);
  });
  it('schemaAt walks properties, maps, arrays and free-form values', () => {
    assert.deepEqual(schemaAt(reg, 'A', ['b', 'name']), str());
    assert.deepEqual(schemaAt(reg, 'A', ['tags', 'anything']), str());
    assert.deepEqual(schemaAt(reg, 'A', ['list', '0', 'name']), str());
    assert.deepEqual(schemaAt(reg, 'A', ['free', 'x', 'y']), any());
    assert.equal(schemaAt(reg, 'A', ['b', 'unknown']), undefined);
    assert.equal(schemaAt(reg, 'Nope', []), undefined);
  });
});

describe('builtinSchemas', () => {
  const reg = builtinSchemas();
  it('is cached and resolves every ref', () => {
    assert.equal(builtinSchemas(), reg);
    const pod = reg.get('io.k8s.api.core.v1.Pod');
    assert.deepEqual(pod?.gvk, [{ group: '', version: 'v1', kind: 'Pod' }]);
  });
  it('carries list semantics and v1.27 field sets', () => {
    const containers = schemaAt(reg, 'io.k8s.api.core.v1.Pod', ['spec', 'containers']);
    assert.ok(containers !== undefined && 'type' in containers && containers.type === 'array');
    assert.equal(containers.patchMergeKey, 'name');
    assert.equal(containers.patchStrategy, 'merge');
    const ports = schemaAt(reg, 'io.k8s.api.core.v1.Pod', ['spec', 'containers', '0', 'ports']);
    assert.deepEqual(ports && 'listMapKeys' in ports ? ports.listMapKeys : undefined, [
      'containerPort',
      'protocol',
    ]);
    // 1.28-only fields are absent.
    assert.equal(schemaAt(reg, 'io.k8s.api.core.v1.Container', ['restartPolicy']), undefined);
    assert.equal(schemaAt(reg, 'io.k8s.api.batch.v1.JobSpec', ['podReplacementPolicy']), undefined);
    assert.equal(reg.get('io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicy'), undefined);
    assert.ok(reg.get('io.k8s.api.authentication.v1beta1.SelfSubjectReview'));
    assert.ok(schemaAt(reg, 'io.k8s.api.networking.v1.NetworkPolicy', ['status', 'conditions']));
    assert.deepEqual(reg.resolve(ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString')), {
      type: 'int-or-string',
    });
    const strategy = schemaAt(reg, 'io.k8s.api.apps.v1.Deployment', ['spec', 'strategy']);
    assert.equal(strategy && 'patchStrategy' in strategy ? strategy.patchStrategy : undefined, 'retainKeys');
  });
});
