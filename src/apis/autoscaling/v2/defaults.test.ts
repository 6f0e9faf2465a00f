import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../../util/json.js';
import { defaultHorizontalPodAutoscalerV1 } from '../v1/defaults.js';
import {
  defaultHorizontalPodAutoscalerV2,
  generateScaleDownRules,
  generateScaleUpRules,
} from './defaults.js';

const upDefaults = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const downDefaults = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

test('v2: minReplicas 1 and the 80% CPU target; no behavior is invented', () => {
  const o: JsonObject = { spec: { maxReplicas: 3 } };
  defaultHorizontalPodAutoscalerV2(o);
  assert.deepEqual(o['spec'], {
    maxReplicas: 3,
    minReplicas: 1,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ],
  });
});

test('v2: given minReplicas and metrics are kept', () => {
  const metrics = [
    { type: 'Pods', pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } },
  ];
  const o: JsonObject = { spec: { minReplicas: 0, maxReplicas: 3, metrics } };
  defaultHorizontalPodAutoscalerV2(o);
  assert.deepEqual(o['spec'], { minReplicas: 0, maxReplicas: 3, metrics });
});

test('v2: a partial behavior is completed field by field from the default rules', () => {
  const o: JsonObject = {
    spec: {
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [{ type: 'Resource' }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 30, selectPolicy: 'Min' } },
    },
  };
  defaultHorizontalPodAutoscalerV2(o);
  assert.deepEqual((o['spec'] as JsonObject)['behavior'], {
    scaleUp: upDefaults,
    scaleDown: { ...downDefaults, stabilizationWindowSeconds: 30, selectPolicy: 'Min' },
  });
  const empty: JsonObject = { spec: { behavior: {} } };
  defaultHorizontalPodAutoscalerV2(empty);
  assert.deepEqual((empty['spec'] as JsonObject)['behavior'], {
    scaleUp: upDefaults,
    scaleDown: downDefaults,
  });
});

test('generated rules: given policies replace the default ones; scale-down has no window by default', () => {
  const policies = [{ type: 'Pods', value: 1, periodSeconds: 60 }];
  assert.deepEqual(generateScaleUpRules({ policies }), { ...upDefaults, policies });
  assert.deepEqual(generateScaleDownRules(), downDefaults);
  // The defaults are copies: changing one result does not change the next.
  const first = generateScaleUpRules();
  (first['policies'] as JsonObject[])[0]!['value'] = 99;
  assert.deepEqual(generateScaleUpRules(), upDefaults);
});

test('v1: minReplicas 1 only', () => {
  const o: JsonObject = { spec: { maxReplicas: 3 } };
  defaultHorizontalPodAutoscalerV1(o);
  assert.deepEqual(o, { spec: { maxReplicas: 3, minReplicas: 1 } });
});
