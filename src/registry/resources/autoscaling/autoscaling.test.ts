import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { cloneJson, isJsonObject } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { autoscalingResources } from './index.js';

const ctx: StrategyContext = { namespace: 'default', features: { enabled: () => false } };
const hpas = autoscalingResources[0]!;
const [v1, v2] = hpas.servedVersions!;
const behaviorKey = 'autoscaling.alpha.kubernetes.io/behavior';

function stored(spec: JsonObject = {}): KubeObject {
  const o: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 5,
      ...spec,
    },
  };
  hpas.info.defaulter!(o);
  return o;
}

/** A v1 request as the handler has it: decoded and defaulted as autoscaling/v1. */
function v1Request(annotations: Record<string, string> = {}): KubeObject {
  const o: KubeObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default', annotations },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 60,
    },
  };
  v1!.info.defaulter!(o);
  return o;
}

describe('served versions', () => {
  test('storage is autoscaling/v2; v1 and v2 are served', () => {
    assert.equal(autoscalingResources.length, 1);
    assert.equal(`${hpas.info.group}/${hpas.info.version}`, 'autoscaling/v2');
    assert.deepEqual(
      hpas.servedVersions!.map((s) => `${s.info.group}/${s.info.version}`),
      ['autoscaling/v1', 'autoscaling/v2'],
    );
    const o = stored();
    assert.equal(v2!.toStorage(o), o);
    assert.equal(v2!.fromStorage(o), o);
  });

  for (const version of ['v1', 'v2']) {
    test(`ResourceInfo matches reference discovery of autoscaling/${version}`, (t) => {
      const path = join(
        process.cwd(),
        `../shared/reference/kube-apiserver-v1.28.7/default/discovery/apis_autoscaling_${version}.json`,
      );
      if (!existsSync(path)) {
        t.skip(`reference data not found at ${path}`);
        return;
      }
      const doc = JSON.parse(readFileSync(path, 'utf8')) as JsonValue;
      const list = isJsonObject(doc) && Array.isArray(doc['resources']) ? doc['resources'] : [];
      const info = hpas.servedVersions!.find((s) => s.info.version === version)!.info;
      const main = list.find((r) => isJsonObject(r) && r['name'] === info.resource);
      assert.ok(isJsonObject(main));
      assert.equal(info.kind, main['kind']);
      assert.equal(info.singular, main['singularName']);
      assert.equal(info.namespaced, main['namespaced']);
      assert.deepEqual([...info.verbs], main['verbs']);
      assert.deepEqual(info.shortNames, main['shortNames']);
      assert.deepEqual(info.categories, main['categories']);
      // Both versions name the v2 storage version in their hash.
      const gvk = `${hpas.info.group}/${hpas.info.version}/${hpas.info.kind}`;
      const hash = createHash('sha256').update(gvk).digest().subarray(0, 8).toString('base64');
      assert.equal(hash, main['storageVersionHash']);
      const subs = list.filter(
        (r) => isJsonObject(r) && typeof r['name'] === 'string' && r['name'].startsWith(`${info.resource}/`),
      );
      assert.deepEqual(
        subs.map((s) => (isJsonObject(s) ? s['name'] : '')),
        info.statusSubresource === true ? [`${info.resource}/status`] : [],
      );
    });
  }
});

describe('strategy', () => {
  test('create resets status to the printed zero status and leaves generation alone', () => {
    const o = stored();
    o['status'] = { currentReplicas: 9, desiredReplicas: 9 };
    o.metadata.generation = 7;
    hpas.strategy.prepareForCreate(ctx, o);
    assert.deepEqual(o['status'], { desiredReplicas: 0, currentMetrics: null });
    assert.equal(o.metadata.generation, 7);
    assert.deepEqual(hpas.strategy.validate(ctx, o), []);
  });

  test('update keeps the stored status', () => {
    const old = stored();
    old['status'] = { currentReplicas: 2, desiredReplicas: 3, currentMetrics: null };
    const next = stored({ maxReplicas: 8 });
    next['status'] = { desiredReplicas: 100 };
    hpas.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next['status'], { currentReplicas: 2, desiredReplicas: 3, currentMetrics: null });
    assert.equal(next.metadata.generation, undefined);
    assert.deepEqual(hpas.strategy.validateUpdate(ctx, next, old), []);
  });

  test('/status writes the status (and metadata) but not the spec', () => {
    const status = hpas.statusStrategy!;
    const old = stored();
    const next = stored({ maxReplicas: 8 });
    next.metadata.labels = { app: 'other' };
    next['status'] = { currentReplicas: 2, desiredReplicas: 2 };
    status.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next['spec'], old['spec']);
    assert.deepEqual(next.metadata.labels, { app: 'other' });
    assert.deepEqual(next['status'], { currentReplicas: 2, desiredReplicas: 2, currentMetrics: null });
    next['status'] = { currentReplicas: -1, desiredReplicas: 0 };
    assert.deepEqual(status.validateUpdate(ctx, next, old).map(String), [
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('an autoscaling/v1 write', () => {
  test('a partial behavior is validated as given, then completed as upstream reads it back', () => {
    const request = v1Request({
      [behaviorKey]:
        '{"ScaleDown":{"StabilizationWindowSeconds":60,"Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":30}]}}',
    });
    const obj = v1!.toStorage(cloneJson(request));
    hpas.strategy.prepareForCreate(ctx, obj);
    assert.deepEqual(hpas.strategy.validate(ctx, obj), []);
    hpas.strategy.canonicalize(obj);
    const spec = obj['spec'] as JsonObject;
    assert.deepEqual(spec['behavior'], {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: {
        stabilizationWindowSeconds: 60,
        selectPolicy: 'Max',
        policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }],
      },
    });
    assert.equal(obj.metadata.annotations, undefined);
    const answer = v1!.fromStorage(obj);
    assert.deepEqual(answer['spec'], {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 60,
    });
    assert.equal(
      answer.metadata.annotations?.[behaviorKey],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}]},' +
        '"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":30}]}}',
    );
    assert.deepEqual(answer['status'], { currentReplicas: 0, desiredReplicas: 0 });
  });

  test('a behavior direction without policies is rejected, as upstream validates before defaulting', () => {
    const obj = v1!.toStorage(v1Request({ [behaviorKey]: '{"ScaleUp":{"SelectPolicy":"Min"}}' }));
    assert.deepEqual(hpas.strategy.validate(ctx, obj).map(String), [
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
    ]);
  });
});
