import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { formatHPAMetrics, horizontalPodAutoscalerTable } from './hpa.js';

const now = new Date('2024-05-01T12:00:00Z');

function hpa(spec: JsonObject, status: JsonObject): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2024-05-01T11:55:00Z' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, ...spec },
    status,
  };
}

const cpu = (target: JsonObject): JsonObject => ({ type: 'Resource', resource: { name: 'cpu', target } });
const cpuNow = (current: JsonObject): JsonObject => ({
  type: 'Resource',
  resource: { name: 'cpu', current },
});

describe('horizontalPodAutoscalerTable', () => {
  it('has the v1.27 columns', () => {
    assert.deepEqual(
      horizontalPodAutoscalerTable.columns.map((c) => `${c.name}:${c.type}:${c.format}:${c.priority}`),
      [
        'Name:string:name:0',
        'Reference:string::0',
        'Targets:string::0',
        'MinPods:string::0',
        'MaxPods:string::0',
        'Replicas:string::0',
        'Age:string::0',
      ],
    );
  });

  it('prints a CPU autoscaler', () => {
    const o = hpa(
      { minReplicas: 2, maxReplicas: 10, metrics: [cpu({ type: 'Utilization', averageUtilization: 80 })] },
      {
        currentReplicas: 3,
        desiredReplicas: 3,
        currentMetrics: [cpuNow({ averageValue: '120m', averageUtilization: 61 })],
      },
    );
    assert.deepEqual(horizontalPodAutoscalerTable.cells(o, now), [
      'web',
      'Deployment/web',
      '61%/80%',
      '2',
      10,
      3,
      '5m',
    ]);
  });

  it('prints <unset>, <none> and zero counts for a bare object', () => {
    const o = hpa({ maxReplicas: 1 }, { desiredReplicas: 0, currentMetrics: null });
    assert.deepEqual(horizontalPodAutoscalerTable.cells(o, now), [
      'web',
      'Deployment/web',
      '<none>',
      '<unset>',
      1,
      0,
      '5m',
    ]);
  });
});

describe('formatHPAMetrics', () => {
  it('shows <unknown> until a current value is reported, and <auto> without a utilization', () => {
    assert.equal(
      formatHPAMetrics([cpu({ type: 'Utilization', averageUtilization: 50 })], []),
      '<unknown>/50%',
    );
    assert.equal(
      formatHPAMetrics([cpu({ type: 'Utilization' })], [cpuNow({ averageValue: '1' })]),
      '<unknown>/<auto>',
    );
    assert.equal(
      formatHPAMetrics([cpu({ type: 'AverageValue', averageValue: '500m' })], []),
      '<unknown>/500m',
    );
    // A status at that index without the quantity prints Go's nil *Quantity.
    assert.equal(
      formatHPAMetrics(
        [cpu({ type: 'AverageValue', averageValue: '500m' })],
        [cpuNow({ averageUtilization: 3 })],
      ),
      '<nil>/500m',
    );
  });

  it('formats each source; average Object and External targets say (avg)', () => {
    const specs = [
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 's' },
          metric: { name: 'm' },
          target: { type: 'Value', value: '10k' },
        },
      },
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 's' },
          metric: { name: 'm' },
          target: { type: 'AverageValue', averageValue: '3' },
        },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } },
      },
      {
        type: 'External',
        external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } },
      },
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '5' } } },
      {
        type: 'ContainerResource',
        containerResource: {
          name: 'memory',
          container: 'app',
          target: { type: 'Utilization', averageUtilization: 70 },
        },
      },
    ];
    const statuses = [
      { type: 'Object', object: { metric: { name: 'm' }, current: { value: '12k' } } },
      { type: 'Object', object: { metric: { name: 'm' }, current: { value: '0', averageValue: '2' } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '900' } } },
      { type: 'External', external: { metric: { name: 'q' }, current: { value: '0' } } },
      { type: 'External', external: { metric: { name: 'q' }, current: { value: '4' } } },
      {
        type: 'ContainerResource',
        containerResource: { name: 'memory', container: 'app', current: { averageUtilization: 65 } },
      },
    ];
    const each = specs.map((s, i) => formatHPAMetrics([s], [statuses[i]]));
    assert.deepEqual(each, ['12k/10k', '2/3 (avg)', '900/1k', '<unknown>/30 (avg)', '4/5', '65%/70%']);
    assert.equal(formatHPAMetrics(specs, statuses), '12k/10k, 2/3 (avg) + 4 more...');
    assert.equal(formatHPAMetrics([{ type: 'Other' }], []), '<unknown type>');
  });
});
