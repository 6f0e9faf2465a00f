/**
 * Invalid HorizontalPodAutoscalers through autoscaling/v2 and autoscaling/v1 and v1.27's
 * exact errors (pkg/apis/autoscaling/validation; a v1 object is validated as the internal (v2)
 * object, so its errors name v2 paths, as upstream's do).
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'autoscaling/v2: replicas bounds, empty target ref, metric without source, pods target without averageValue, scale to zero',
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    path: '/apis/autoscaling/v2/namespaces/invalid/horizontalpodautoscalers',
    body: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa' },
      spec: {
        scaleTargetRef: { kind: '', name: '' },
        minReplicas: 0,
        maxReplicas: 0,
        metrics: [
          { type: 'Resource' },
          {
            type: 'Pods',
            pods: { metric: { name: 'm' }, target: { type: 'Utilization', averageUtilization: 50 } },
          },
        ],
      },
    },
    causes: [
      ['spec.minReplicas', 'FieldValueInvalid', 'Invalid value: 0: must be greater than or equal to 1'],
      ['spec.maxReplicas', 'FieldValueInvalid', 'Invalid value: 0: must be greater than 0'],
      ['spec.scaleTargetRef.kind', 'FieldValueRequired', 'Required value'],
      ['spec.scaleTargetRef.name', 'FieldValueRequired', 'Required value'],
      [
        'spec.metrics[0].resource',
        'FieldValueRequired',
        'Required value: must populate information for the given metric source',
      ],
      [
        'spec.metrics[1].pods.target.averageValue',
        'FieldValueRequired',
        'Required value: must specify a positive target averageValue',
      ],
      [
        'spec.metrics',
        'FieldValueForbidden',
        'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      ],
    ],
  },
  {
    name: "autoscaling/v2: target name with '/', behavior window, select policy, policy value and period",
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    path: '/apis/autoscaling/v2/namespaces/invalid/horizontalpodautoscalers',
    body: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa2' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'd/x', apiVersion: 'apps/v1' },
        maxReplicas: 3,
        behavior: {
          scaleUp: {
            stabilizationWindowSeconds: -1,
            selectPolicy: 'Random',
            policies: [{ type: 'Pods', value: 0, periodSeconds: 2000 }],
          },
        },
      },
    },
    causes: [
      ['spec.scaleTargetRef.name', 'FieldValueInvalid', 'Invalid value: "d/x": may not contain \'/\''],
      [
        'spec.behavior.scaleUp.stabilizationWindowSeconds',
        'FieldValueInvalid',
        'Invalid value: -1: must be greater than or equal to zero',
      ],
      [
        'spec.behavior.scaleUp.selectPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Random": supported values: "Disabled", "Max", "Min"',
      ],
      [
        'spec.behavior.scaleUp.policies[0].value',
        'FieldValueInvalid',
        'Invalid value: 0: must be greater than zero',
      ],
      [
        'spec.behavior.scaleUp.policies[0].periodSeconds',
        'FieldValueInvalid',
        'Invalid value: 2000: must be less than or equal to 1800',
      ],
    ],
  },
  {
    name: 'autoscaling/v2: unknown metric type, resource metric with a bad target type, external metric with a bad selector',
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    path: '/apis/autoscaling/v2/namespaces/invalid/horizontalpodautoscalers',
    body: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa3' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'd' },
        maxReplicas: 3,
        metrics: [
          { type: 'Magic' },
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Average' } } },
          {
            type: 'External',
            external: {
              metric: { name: '', selector: { matchLabels: { a: 'b b' } } },
              target: { type: 'Value', value: '-1' },
            },
          },
        ],
      },
    },
    causes: [
      [
        'spec.metrics[0].type',
        'FieldValueNotSupported',
        'Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      ],
      [
        'spec.metrics[0].type',
        'FieldValueNotSupported',
        'Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      ],
      [
        'spec.metrics[1].resource.target.type',
        'FieldValueInvalid',
        'Invalid value: "Average": must be either Utilization, Value, or AverageValue',
      ],
      [
        'spec.metrics[1].resource.target.averageUtilization',
        'FieldValueRequired',
        'Required value: must set either a target raw value or a target utilization',
      ],
      [
        'spec.metrics[2].external.metric.name',
        'FieldValueRequired',
        'Required value: must specify a metric name',
      ],
      [
        'spec.metrics[2].external.target.value',
        'FieldValueInvalid',
        'Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
      ],
    ],
  },
  {
    name: 'autoscaling/v1: maxReplicas below minReplicas, zero CPU target (reported at the v2 path)',
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    path: '/apis/autoscaling/v1/namespaces/invalid/horizontalpodautoscalers',
    body: {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa1' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'd' },
        minReplicas: 5,
        maxReplicas: 2,
        targetCPUUtilizationPercentage: 0,
      },
    },
    causes: [
      [
        'spec.maxReplicas',
        'FieldValueInvalid',
        'Invalid value: 2: must be greater than or equal to `minReplicas`',
      ],
      [
        'spec.metrics[0].resource.target.averageUtilization',
        'FieldValueInvalid',
        'Invalid value: 0: must be greater than 0',
      ],
    ],
  },
  {
    name: 'autoscaling/v1: target without kind and name, minReplicas 0',
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    path: '/apis/autoscaling/v1/namespaces/invalid/horizontalpodautoscalers',
    body: {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa1b' },
      spec: { scaleTargetRef: { kind: '', name: '' }, minReplicas: 0, maxReplicas: 1 },
    },
    causes: [
      ['spec.minReplicas', 'FieldValueInvalid', 'Invalid value: 0: must be greater than or equal to 1'],
      ['spec.scaleTargetRef.kind', 'FieldValueRequired', 'Required value'],
      ['spec.scaleTargetRef.name', 'FieldValueRequired', 'Required value'],
      [
        'spec.metrics',
        'FieldValueForbidden',
        'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      ],
    ],
  },
];

runTable('invalid objects: autoscaling', rows);
