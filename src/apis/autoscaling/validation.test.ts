import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { StrategyContext } from '../../machinery/validation-context.js';
import type { JsonObject } from '../../util/json.js';
import { goQuantity } from './go-quantity.js';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from './validation.js';

function context(...gates: string[]): StrategyContext {
  return { namespace: 'default', features: { enabled: (name) => gates.includes(name) } };
}
const ctx = context();

function hpa(spec: JsonObject, status: JsonObject = { desiredReplicas: 0 }): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, ...spec },
    status,
  };
}

const cpu = {
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
};
const external = {
  type: 'External',
  external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } },
};

function messages(o: KubeObject, c: StrategyContext = ctx): string[] {
  return validateHorizontalPodAutoscaler(c, o).map(String);
}

function metricMessages(...metrics: JsonObject[]): string[] {
  return messages(hpa({ metrics }));
}

const quantityOf = (s: string, v: number, scale = 0): string =>
  `resource.Quantity{i:resource.int64Amount{value:${v}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"DecimalSI"}`;

describe('spec', () => {
  test('a defaulted autoscaler is valid', () => {
    assert.deepEqual(metricMessages(cpu), []);
  });

  test('replica bounds', () => {
    assert.deepEqual(messages(hpa({ minReplicas: 3, maxReplicas: 0, metrics: [cpu] })), [
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    ]);
    assert.deepEqual(messages(hpa({ minReplicas: 0, metrics: [cpu] })), [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });

  test('minReplicas 0 with HPAScaleToZero, or when it already was 0', () => {
    assert.deepEqual(messages(hpa({ minReplicas: 0, metrics: [external] }), context('HPAScaleToZero')), []);
    assert.deepEqual(messages(hpa({ minReplicas: 0, metrics: [cpu] }), context('HPAScaleToZero')), [
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    const old = hpa({ minReplicas: 0, metrics: [external] });
    const updated = hpa({ minReplicas: 0, maxReplicas: 7, metrics: [external] });
    assert.deepEqual(validateHorizontalPodAutoscalerUpdate(ctx, updated, old).map(String), []);
    const fromOne = hpa({ minReplicas: 1, metrics: [external] });
    assert.deepEqual(validateHorizontalPodAutoscalerUpdate(ctx, updated, fromOne).map(String), [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    ]);
  });

  test('scaleTargetRef kind and name', () => {
    assert.deepEqual(messages(hpa({ scaleTargetRef: {}, metrics: [cpu] })), [
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Required value',
    ]);
    assert.deepEqual(messages(hpa({ scaleTargetRef: { kind: 'a/b%', name: '..' }, metrics: [cpu] })), [
      `spec.scaleTargetRef.kind: Invalid value: "a/b%": may not contain '/'`,
      `spec.scaleTargetRef.kind: Invalid value: "a/b%": may not contain '%'`,
      `spec.scaleTargetRef.name: Invalid value: "..": may not be '..'`,
    ]);
  });
});

describe('metrics', () => {
  test('metric source type', () => {
    const unsupported = (v: string): string =>
      `spec.metrics[0].type: Unsupported value: "${v}": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`;
    assert.deepEqual(metricMessages({}), [
      'spec.metrics[0].type: Required value: must specify a metric source type',
      unsupported(''),
      unsupported(''),
    ]);
    assert.deepEqual(metricMessages({ type: 'Memory' }), [unsupported('Memory'), unsupported('Memory')]);
  });

  test('the source must match the type, and be the only one', () => {
    assert.deepEqual(metricMessages({ type: 'Pods', resource: cpu.resource }), [
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
    ]);
    assert.deepEqual(metricMessages({ ...external, resource: {} }), [
      'spec.metrics[0].resource: Forbidden: must populate the given metric source only',
    ]);
    // Only the first source present is validated.
    assert.deepEqual(metricMessages({ type: 'Resource', resource: {}, containerResource: {} }), [
      'spec.metrics[0].resource.name: Required value: must specify a resource name',
      'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
      'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      'spec.metrics[0].containerResource: Forbidden: must populate the given metric source only',
    ]);
  });

  test('Object source', () => {
    assert.deepEqual(
      metricMessages({
        type: 'Object',
        object: { describedObject: { kind: 'Service' }, metric: { name: 'a/b' }, target: { type: 'Bogus' } },
      }),
      [
        'spec.metrics[0].object.describedObject.name: Required value',
        `spec.metrics[0].object.metric.name: Invalid value: "a/b": may not contain '/'`,
        'spec.metrics[0].object.target.type: Invalid value: "Bogus": must be either Utilization, Value, or AverageValue',
        'spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue',
      ],
    );
  });

  test('Pods and External sources: quantities must be positive', () => {
    assert.deepEqual(
      metricMessages({
        type: 'Pods',
        pods: { metric: {}, target: { type: 'AverageValue', averageValue: '-1' } },
      }),
      [
        'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
        `spec.metrics[0].pods.target.averageValue: Invalid value: ${quantityOf('-1', -1)}: must be positive`,
      ],
    );
    assert.deepEqual(
      metricMessages({ type: 'Pods', pods: { metric: { name: 'm' }, target: { type: 'AverageValue' } } }),
      [
        'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
      ],
    );
    assert.deepEqual(
      metricMessages({
        type: 'External',
        external: { metric: { name: 'q' }, target: { type: 'Value', value: '0', averageValue: '1' } },
      }),
      [
        `spec.metrics[0].external.target.value: Invalid value: ${quantityOf('0', 0)}: must be positive`,
        'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
      ],
    );
    assert.deepEqual(
      metricMessages({ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value' } } }),
      [
        'spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target',
      ],
    );
  });

  test('Resource source: utilization or raw value, not both', () => {
    assert.deepEqual(
      metricMessages({
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: 0, averageValue: '100m' },
        },
      }),
      [
        'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
        'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
      ],
    );
  });

  test('ContainerResource source: resource and container names', () => {
    const container = (name: string, c: string): JsonObject => ({
      type: 'ContainerResource',
      containerResource: { name, container: c, target: { type: 'Utilization', averageUtilization: 60 } },
    });
    assert.deepEqual(metricMessages(container('memory', 'app'), container('example.com/gpu', 'app')), []);
    assert.deepEqual(metricMessages(container('gpu', 'App_1')), [
      'spec.metrics[0].containerResource.name: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.metrics[0].containerResource.name: Invalid value: "gpu": must be a standard resource for containers',
      `spec.metrics[0].containerResource.container: Invalid value: "App_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    assert.deepEqual(metricMessages(container('', '')), [
      'spec.metrics[0].containerResource.name: Required value: must specify a resource name',
      'spec.metrics[0].containerResource.container: Required value: must specify a container',
    ]);
  });
});

describe('behavior', () => {
  test('stabilization window, select policy and policies', () => {
    const o = hpa({
      metrics: [cpu],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: -1, selectPolicy: 'Fast' },
        scaleDown: {
          stabilizationWindowSeconds: 4000,
          policies: [
            { type: 'X', value: 0, periodSeconds: 1801 },
            { type: 'Pods', value: 1, periodSeconds: 0 },
          ],
        },
      },
    });
    assert.deepEqual(messages(o), [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fast": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleDown.policies[0].type: Unsupported value: "X": supported values: "Percent", "Pods"',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies[1].periodSeconds: Invalid value: 0: must be greater than zero',
    ]);
  });
});

test('status update: replica counts may not be negative', () => {
  const o = hpa({ metrics: [cpu] }, { currentReplicas: -1, desiredReplicas: -2 });
  assert.deepEqual(validateHorizontalPodAutoscalerStatusUpdate(o).map(String), [
    'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0',
  ]);
  assert.deepEqual(validateHorizontalPodAutoscalerStatusUpdate(hpa({})).map(String), []);
});

test("Go's %#v of a Quantity follows ParseQuantity's int64 and inf.Dec paths", () => {
  assert.equal(goQuantity('-500m'), quantityOf('-500m', -500, -3));
  assert.equal(goQuantity('-1k'), quantityOf('-1k', -1, 3));
  assert.equal(
    goQuantity('-1Ki'),
    'resource.Quantity{i:resource.int64Amount{value:-1024, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Ki", Format:"BinarySI"}',
  );
  assert.equal(
    goQuantity('-12345678901234567890'),
    'resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(0xc000010000)}, s:"", Format:"DecimalSI"}',
  );
});
