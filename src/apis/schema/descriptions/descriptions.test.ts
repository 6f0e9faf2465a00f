import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinSchemas } from '../builtin.js';
import { describeDefinition, descriptionTable } from './index.js';

describe('descriptions', () => {
  const registry = builtinSchemas();

  it('name existing definitions and properties only', () => {
    const wrong: string[] = [];
    for (const [name, entry] of descriptionTable()) {
      const def = registry.get(name);
      if (def === undefined) {
        wrong.push(name);
        continue;
      }
      const schema = registry.resolve(def.schema);
      const props = schema.type === 'object' ? (schema.properties ?? {}) : {};
      for (const field of Object.keys(entry.fields ?? {}))
        if (!(field in props)) wrong.push(`${name}.${field}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('describe every kind and each of its top-level fields', () => {
    const missing: string[] = [];
    for (const def of registry.all()) {
      if (def.gvk === undefined) continue;
      const texts = describeDefinition(def);
      if (texts?.text === undefined) missing.push(def.name);
      const schema = registry.resolve(def.schema);
      for (const field of Object.keys(schema.type === 'object' ? (schema.properties ?? {}) : {}))
        if (texts?.fields?.[field] === undefined) missing.push(`${def.name}.${field}`);
    }
    assert.deepEqual(missing, []);
  });

  it('describe every field of the nested types people explain most', () => {
    const core = 'io.k8s.api.core.v1.';
    const names = [
      ...[
        'PodSpec',
        'Container',
        'Probe',
        'ExecAction',
        'HTTPGetAction',
        'TCPSocketAction',
        'GRPCAction',
        'Volume',
        'ResourceRequirements',
        'Affinity',
        'NodeAffinity',
        'PodAffinity',
        'PodAntiAffinity',
        'PodAffinityTerm',
        'Toleration',
        'TopologySpreadConstraint',
        'SecurityContext',
        'PodSecurityContext',
        'ServiceSpec',
        'ServicePort',
      ].map((n) => core + n),
      'io.k8s.api.apps.v1.DeploymentSpec',
      'io.k8s.api.apps.v1.DeploymentStrategy',
      'io.k8s.api.apps.v1.RollingUpdateDeployment',
      'io.k8s.api.apps.v1.StatefulSetSpec',
      'io.k8s.api.apps.v1.StatefulSetOrdinals',
      'io.k8s.api.apps.v1.DaemonSetSpec',
      'io.k8s.api.apps.v1.DaemonSetUpdateStrategy',
      'io.k8s.api.batch.v1.JobSpec',
      'io.k8s.api.batch.v1.CronJobSpec',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    ];
    const missing: string[] = [];
    for (const name of names) {
      const def = registry.get(name);
      assert.ok(def, name);
      const texts = describeDefinition(def);
      if (texts?.text === undefined) missing.push(name);
      const schema = registry.resolve(def.schema);
      for (const field of Object.keys(schema.type === 'object' ? (schema.properties ?? {}) : {}))
        if (texts?.fields?.[field] === undefined) missing.push(`${name}.${field}`);
    }
    assert.deepEqual(missing, []);
  });
});
