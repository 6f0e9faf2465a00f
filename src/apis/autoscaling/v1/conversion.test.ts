import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { defaultHorizontalPodAutoscalerV2 } from '../v2/defaults.js';
import { horizontalPodAutoscalerToV1, horizontalPodAutoscalerToV2 } from './conversion.js';

const metricsKey = 'autoscaling.alpha.kubernetes.io/metrics';
const currentKey = 'autoscaling.alpha.kubernetes.io/current-metrics';
const conditionsKey = 'autoscaling.alpha.kubernetes.io/conditions';
const behaviorKey = 'autoscaling.alpha.kubernetes.io/behavior';

const meta = { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7' };

function v2(spec: JsonObject, status: JsonObject = { desiredReplicas: 0, currentMetrics: null }): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { ...meta },
    spec,
    status,
  };
}

function v1(spec: JsonObject, annotations?: Record<string, string>, status?: JsonObject): KubeObject {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: annotations === undefined ? { ...meta } : { ...meta, annotations },
    spec,
    status: status ?? { currentReplicas: 0, desiredReplicas: 0 },
  };
}

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const cpu = (percent: number): JsonObject => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } },
});

/** A v2 object as upstream stores it (defaulted), using every metric source and all status parts. */
function fullV2(): KubeObject {
  const o = v2(
    {
      scaleTargetRef: ref,
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        {
          type: 'Object',
          object: {
            describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' },
            target: { type: 'Value', value: '10k' },
            metric: { name: 'rps', selector: { matchLabels: { b: '1', a: '2' } } },
          },
        },
        {
          type: 'Pods',
          pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '500m' } },
        },
        {
          type: 'Resource',
          resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
        },
        {
          type: 'ContainerResource',
          containerResource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: 70 },
            container: 'app',
          },
        },
        {
          type: 'External',
          external: {
            metric: {
              name: 'queue',
              selector: { matchExpressions: [{ key: 'q', operator: 'In', values: ['a', 'b'] }] },
            },
            target: { type: 'AverageValue', averageValue: '30' },
          },
        },
        cpu(50),
      ],
      behavior: {
        scaleDown: {
          stabilizationWindowSeconds: 60,
          policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }],
        },
      },
    },
    {
      observedGeneration: 3,
      lastScaleTime: '2024-05-01T10:00:00Z',
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [
        {
          type: 'Object',
          object: {
            metric: { name: 'rps', selector: { matchLabels: { b: '1', a: '2' } } },
            current: { value: '12k' },
            describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' },
          },
        },
        { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '400m' } } },
        { type: 'Resource', resource: { name: 'memory', current: { averageValue: '900Mi' } } },
        {
          type: 'ContainerResource',
          containerResource: {
            name: 'cpu',
            current: { averageValue: '80m', averageUtilization: 40 },
            container: 'app',
          },
        },
        {
          type: 'External',
          external: { metric: { name: 'queue' }, current: { value: '0', averageValue: '25' } },
        },
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 60 } },
        },
      ],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: '2024-05-01T09:00:00Z',
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
        },
        { type: 'ScalingActive', status: 'True', lastTransitionTime: '2024-05-01T09:00:00Z' },
      ],
    },
  );
  defaultHorizontalPodAutoscalerV2(o);
  return o;
}

describe('autoscaling/v2 → autoscaling/v1', () => {
  test('CPU utilization becomes targetCPUUtilizationPercentage; the rest goes into annotations', () => {
    const out = horizontalPodAutoscalerToV1(fullV2());
    assert.equal(out.apiVersion, 'autoscaling/v1');
    assert.equal(out.kind, 'HorizontalPodAutoscaler');
    assert.deepEqual(out['spec'], {
      scaleTargetRef: ref,
      minReplicas: 2,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 50,
    });
    assert.deepEqual(out['status'], {
      observedGeneration: 3,
      lastScaleTime: '2024-05-01T10:00:00Z',
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: 60,
    });
    const a = out.metadata.annotations!;
    assert.deepEqual(Object.keys(a), [metricsKey, currentKey, behaviorKey, conditionsKey]);
    assert.equal(
      a[metricsKey],
      '[{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},' +
        '"metricName":"rps","targetValue":"10k","selector":{"matchLabels":{"a":"2","b":"1"}}}},' +
        '{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"500m"}},' +
        '{"type":"Resource","resource":{"name":"memory","targetAverageValue":"1Gi"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":70,"container":"app"}},' +
        '{"type":"External","external":{"metricName":"queue","metricSelector":{"matchExpressions":[{"key":"q","operator":"In","values":["a","b"]}]},"targetAverageValue":"30"}}]',
    );
    assert.equal(
      a[currentKey],
      '[{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},' +
        '"metricName":"rps","currentValue":"12k","selector":{"matchLabels":{"a":"2","b":"1"}}}},' +
        '{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"400m"}},' +
        '{"type":"Resource","resource":{"name":"memory","currentAverageValue":"900Mi"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"80m","container":"app"}},' +
        '{"type":"External","external":{"metricName":"queue","currentValue":"0","currentAverageValue":"25"}},' +
        '{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":60,"currentAverageValue":"120m"}}]',
    );
    // The internal type, marshalled without json tags; the defaulted scale-up rules included.
    assert.equal(
      a[behaviorKey],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}]},' +
        '"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}]}}',
    );
    assert.equal(
      a[conditionsKey],
      '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T09:00:00Z","reason":"ReadyForNewScale","message":"recommended size matches current size"},' +
        '{"type":"ScalingActive","status":"True","lastTransitionTime":"2024-05-01T09:00:00Z"}]',
    );
  });

  test('a plain CPU autoscaler needs no annotation; a fresh status prints both counters', () => {
    const o = v2({ scaleTargetRef: ref, maxReplicas: 5 });
    defaultHorizontalPodAutoscalerV2(o);
    const out = horizontalPodAutoscalerToV1(o);
    assert.deepEqual(out.metadata, meta);
    assert.deepEqual(out['spec'], {
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 80,
    });
    assert.deepEqual(out['status'], { currentReplicas: 0, desiredReplicas: 0 });
  });

  test('round-trip annotations the v2 object carried are replaced; others are kept', () => {
    const o = v2({ scaleTargetRef: ref, maxReplicas: 5, metrics: [cpu(60)] });
    o.metadata.annotations = { [metricsKey]: 'bogus', [conditionsKey]: '[]', team: 'a' };
    const out = horizontalPodAutoscalerToV1(o);
    assert.deepEqual(out.metadata.annotations, { team: 'a' });
    assert.deepEqual(o.metadata.annotations, { [metricsKey]: 'bogus', [conditionsKey]: '[]', team: 'a' });
  });

  test('strings are escaped as Go does and map keys sorted as Go does', () => {
    const o = v2(
      { scaleTargetRef: ref, maxReplicas: 5, metrics: [cpu(60)] },
      {
        desiredReplicas: 1,
        currentMetrics: null,
        conditions: [{ type: 'ScalingActive', status: 'False', message: 'a < b && c > "d"\u2028' }],
      },
    );
    (o['spec'] as JsonObject)['metrics'] = [
      {
        type: 'External',
        external: {
          metric: { name: 'm', selector: { matchLabels: { '9': 'x', '10': 'y', b: 'z' } } },
          target: { type: 'Value', value: '1' },
        },
      },
    ];
    const a = horizontalPodAutoscalerToV1(o).metadata.annotations!;
    assert.equal(
      a[conditionsKey],
      '[{"type":"ScalingActive","status":"False","lastTransitionTime":null,"message":"a \\u003c b \\u0026\\u0026 c \\u003e \\"d\\"\\u2028"}]',
    );
    assert.equal(
      a[metricsKey],
      '[{"type":"External","external":{"metricName":"m","metricSelector":{"matchLabels":{"10":"y","9":"x","b":"z"}},"targetValue":"1"}}]',
    );
  });

  test('the last CPU utilization among the current metrics is the current CPU utilization', () => {
    const status = {
      desiredReplicas: 1,
      currentMetrics: [
        { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 10 } } },
        { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '1' } } },
        { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30 } } },
      ],
    };
    const out = horizontalPodAutoscalerToV1(
      v2({ scaleTargetRef: ref, maxReplicas: 5, metrics: [cpu(60)] }, status),
    );
    assert.equal((out['status'] as JsonObject)['currentCPUUtilizationPercentage'], 30);
  });
});

describe('autoscaling/v1 → autoscaling/v2', () => {
  test('no target: the implicit 80% CPU target; a fresh status has currentMetrics null', () => {
    const out = horizontalPodAutoscalerToV2(v1({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3 }));
    assert.equal(out.apiVersion, 'autoscaling/v2');
    assert.deepEqual(out['spec'], {
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [cpu(80)],
    });
    assert.deepEqual(out['status'], { desiredReplicas: 0, currentMetrics: null });
    assert.deepEqual(out.metadata, meta);
  });

  test('targetCPUUtilizationPercentage and currentCPUUtilizationPercentage', () => {
    const out = horizontalPodAutoscalerToV2(
      v1({ scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 55 }, undefined, {
        currentReplicas: 2,
        desiredReplicas: 2,
        currentCPUUtilizationPercentage: 41,
      }),
    );
    assert.deepEqual((out['spec'] as JsonObject)['metrics'], [cpu(55)]);
    assert.deepEqual(out['status'], {
      currentReplicas: 2,
      desiredReplicas: 2,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 41 } } }],
    });
  });

  test('the other metrics come first, the CPU target last; annotations are dropped', () => {
    const out = horizontalPodAutoscalerToV2(
      v1(
        { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 55 },
        {
          [metricsKey]: '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":60}}]',
          owner: 'me',
        },
      ),
    );
    assert.deepEqual((out['spec'] as JsonObject)['metrics'], [
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 60 } },
      },
      cpu(55),
    ]);
    assert.deepEqual(out.metadata.annotations, { owner: 'me' });
  });

  test('annotations are read as encoding/json would: any case, unknown fields ignored, quantities canonical', () => {
    const out = horizontalPodAutoscalerToV2(
      v1(
        { scaleTargetRef: ref, maxReplicas: 3 },
        {
          [metricsKey]:
            '[{"TYPE":"Pods","pods":{"MetricName":"qps","targetAverageValue":0.5,"extra":true}},' +
            '{"type":"External","external":{"metricName":"q","targetValue":" 1000m "}}]',
          [behaviorKey]: '{"scaleUp":{"policies":[{"type":"Pods","value":2,"periodSeconds":30}]}}',
        },
      ),
    );
    const spec = out['spec'] as JsonObject;
    assert.deepEqual(spec['metrics'], [
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '500m' } },
      },
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } },
    ]);
    // Only what the annotation says: the other direction and fields are defaulted after validation.
    assert.deepEqual(spec['behavior'], {
      scaleUp: { policies: [{ type: 'Pods', value: 2, periodSeconds: 30 }] },
    });
  });

  test('an annotation that does not parse (or has a wrong type) is ignored', () => {
    const out = horizontalPodAutoscalerToV2(
      v1(
        { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
        {
          [metricsKey]: '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"12x"}}]',
          [currentKey]: 'not json',
          [conditionsKey]: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"yesterday"}]',
          [behaviorKey]: '{"ScaleUp":{"StabilizationWindowSeconds":"5"}}',
        },
      ),
    );
    assert.deepEqual(out['spec'], { scaleTargetRef: ref, maxReplicas: 3, metrics: [cpu(70)] });
    assert.deepEqual(out['status'], { desiredReplicas: 0, currentMetrics: null });
    assert.equal(out.metadata.annotations, undefined);
  });

  test('a behavior annotation with neither direction sets no behavior', () => {
    for (const text of ['{}', 'null', '{"ScaleUp":null,"ScaleDown":null}']) {
      const out = horizontalPodAutoscalerToV2(
        v1({ scaleTargetRef: ref, maxReplicas: 3 }, { [behaviorKey]: text }),
      );
      assert.equal((out['spec'] as JsonObject)['behavior'], undefined, text);
    }
  });

  test('an empty current-metrics annotation empties the list; condition times are normalized to UTC seconds', () => {
    const out = horizontalPodAutoscalerToV2(
      v1(
        { scaleTargetRef: ref, maxReplicas: 3 },
        {
          [currentKey]: '[]',
          [conditionsKey]:
            '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T11:00:00.75+02:00"},{"type":"ScalingLimited","status":"False"}]',
        },
        { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 10 },
      ),
    );
    assert.deepEqual(out['status'], {
      currentReplicas: 1,
      desiredReplicas: 1,
      currentMetrics: [],
      conditions: [
        { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T09:00:00Z' },
        { type: 'ScalingLimited', status: 'False', lastTransitionTime: null },
      ],
    });
  });

  test('the input is not modified', () => {
    const input = v1({ scaleTargetRef: ref, maxReplicas: 3 }, { [metricsKey]: '[]', keep: 'x' });
    const copy = cloneJson(input);
    horizontalPodAutoscalerToV2(input);
    assert.deepEqual(input, copy);
  });
});

describe('round trips', () => {
  test('v2 → v1 → v2 preserves a stored object', () => {
    const stored = fullV2();
    const back = horizontalPodAutoscalerToV2(horizontalPodAutoscalerToV1(stored));
    assert.deepEqual(back, stored);
  });

  test('v1 → v2 → v1 preserves what a v1 client read', () => {
    const served = horizontalPodAutoscalerToV1(fullV2());
    const again = horizontalPodAutoscalerToV1(horizontalPodAutoscalerToV2(served));
    assert.deepEqual(again, served);
    assert.deepEqual(Object.keys(again.metadata.annotations!), Object.keys(served.metadata.annotations!));
  });

  test('upstream quirks survive: the CPU target moves last, v1-only zero quantities appear', () => {
    const stored = v2(
      {
        scaleTargetRef: ref,
        minReplicas: 1,
        maxReplicas: 4,
        metrics: [
          cpu(50),
          {
            type: 'Object',
            object: {
              describedObject: { kind: 'Service', name: 's' },
              target: { type: 'AverageValue', averageValue: '3' },
              metric: { name: 'm' },
            },
          },
        ],
      },
      {
        desiredReplicas: 1,
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 20 } } },
        ],
      },
    );
    const back = horizontalPodAutoscalerToV2(horizontalPodAutoscalerToV1(stored));
    assert.deepEqual((back['spec'] as JsonObject)['metrics'], [
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 's' },
          // v1's targetValue is not a pointer: it comes back as a set zero.
          target: { type: 'AverageValue', value: '0', averageValue: '3' },
          metric: { name: 'm' },
        },
      },
      cpu(50),
    ]);
    assert.deepEqual((back['status'] as JsonObject)['currentMetrics'], [
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '0', averageUtilization: 20 } } },
    ]);
  });
});
