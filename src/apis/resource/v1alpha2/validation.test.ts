import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { defaultResourceClaim, defaultResourceClaimTemplate } from './defaults.js';
import {
  validatePodSchedulingContext,
  validatePodSchedulingContextStatusUpdate,
  validateResourceClaim,
  validateResourceClaimStatusUpdate,
  validateResourceClaimTemplate,
  validateResourceClaimTemplateUpdate,
  validateResourceClaimUpdate,
  validateResourceClass,
} from './validation.js';

const msgs = (errs: readonly { toString(): string }[]): string[] => errs.map(String);
const o = (kind: string, rest: JsonObject): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1alpha2',
  kind,
  metadata: { name: 'x', namespace: 'default' },
  ...rest,
});
const claim = (spec: JsonObject, status?: JsonObject): KubeObject =>
  o('ResourceClaim', { spec, ...(status === undefined ? {} : { status }) });
const spec = { resourceClassName: 'gpu', allocationMode: 'WaitForFirstConsumer' };
const pod = { resource: 'pods', name: 'p', uid: 'u1' };

test('defaults: allocationMode WaitForFirstConsumer, also in templates', () => {
  const c: JsonObject = { spec: { resourceClassName: 'gpu' } };
  defaultResourceClaim(c);
  assert.deepEqual(c['spec'], spec);
  const t: JsonObject = { spec: { spec: { resourceClassName: 'gpu', allocationMode: 'Immediate' } } };
  defaultResourceClaimTemplate(t);
  assert.deepEqual(t['spec'], { spec: { resourceClassName: 'gpu', allocationMode: 'Immediate' } });
});

test('ResourceClass: driver name, parameters, suitable nodes', () => {
  assert.deepEqual(msgs(validateResourceClass(o('ResourceClass', { driverName: 'gpu.example.com' }))), []);
  assert.deepEqual(
    msgs(
      validateResourceClass(
        o('ResourceClass', {
          driverName: '',
          parametersRef: { kind: '', name: 'p', namespace: 'Bad' },
          suitableNodes: { nodeSelectorTerms: [] },
        }),
      ),
    ),
    [
      'driverName: Required value',
      `driverName: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'parametersRef.kind: Required value',
      `parametersRef.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'suitableNodes.nodeSelectorTerms: Required value: must have at least one node selector term',
    ],
  );
});

test('ResourceClaim spec: class name, parameters, allocation mode; immutable', () => {
  assert.deepEqual(msgs(validateResourceClaim(claim(spec))), []);
  assert.deepEqual(
    msgs(
      validateResourceClaim(
        claim({ resourceClassName: 'gpu', allocationMode: 'Later', parametersRef: { kind: 'K' } }),
      ),
    ),
    [
      'spec.parametersRef.name: Required value',
      'spec.allocationMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ],
  );
  assert.deepEqual(
    msgs(validateResourceClaimUpdate(claim({ ...spec, resourceClassName: 'fpga' }), claim(spec))),
    [
      'spec: Invalid value: resource.ResourceClaimSpec{ResourceClassName:"fpga", ParametersRef:(*resource.ResourceClaimParametersReference)(nil), AllocationMode:"WaitForFirstConsumer"}: field is immutable',
    ],
  );
});

test('ResourceClaim status rules: driver, reservedFor, allocation, deallocation', () => {
  const old = claim(spec);
  const allocated = { driverName: 'gpu.example.com', allocation: { shareable: false } };
  assert.deepEqual(
    msgs(validateResourceClaimStatusUpdate(claim(spec, { ...allocated, reservedFor: [pod] }), old)),
    [],
  );
  assert.deepEqual(
    msgs(validateResourceClaimStatusUpdate(claim(spec, { allocation: {}, reservedFor: [pod, pod] }), old)),
    [
      'status.driverName: Required value: must be specified when `allocation` is set',
      'status.reservedFor[1].uid: Duplicate value: "u1"',
      'status.reservedFor: Forbidden: may not be reserved more than once',
    ],
  );
  assert.deepEqual(
    msgs(validateResourceClaimStatusUpdate(claim(spec, { reservedFor: [{ uid: 'u' }] }), old)),
    [
      'status.reservedFor[0].resource: Required value',
      'status.reservedFor[0].name: Required value',
      'status.reservedFor: Forbidden: may not be specified when `allocated` is not set',
    ],
  );
  assert.deepEqual(
    msgs(validateResourceClaimStatusUpdate(claim(spec, { deallocationRequested: true }), old)),
    ['status: Forbidden: `allocation` must be set when `deallocationRequested` is set'],
  );
  const oldAllocated = claim(spec, allocated);
  assert.deepEqual(
    msgs(
      validateResourceClaimStatusUpdate(
        claim(spec, { ...allocated, allocation: { shareable: true } }),
        oldAllocated,
      ),
    ),
    [
      'status.allocation: Invalid value: resource.AllocationResult{ResourceHandles:[]resource.ResourceHandle(nil), AvailableOnNodes:(*core.NodeSelector)(nil), Shareable:true}: field is immutable',
    ],
  );
  assert.deepEqual(
    msgs(
      validateResourceClaimStatusUpdate(
        claim(spec, { ...allocated, deallocationRequested: true, reservedFor: [pod] }),
        oldAllocated,
      ),
    ),
    [
      'status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set',
      'status.deallocationRequested: Forbidden: deallocation cannot be requested while `reservedFor` is set',
    ],
  );
  assert.deepEqual(
    msgs(
      validateResourceClaimStatusUpdate(
        claim(spec, allocated),
        claim(spec, { ...allocated, deallocationRequested: true }),
      ),
    ),
    ['status.deallocationRequested: Forbidden: may not be cleared when `allocation` is set'],
  );
});

test('ResourceClaimTemplate: template metadata may hold only labels and annotations; spec immutable', () => {
  const t = (s: JsonObject): KubeObject => o('ResourceClaimTemplate', { spec: s });
  assert.deepEqual(msgs(validateResourceClaimTemplate(t({ metadata: { labels: { a: 'b' } }, spec }))), []);
  assert.deepEqual(
    msgs(
      validateResourceClaimTemplate(
        t({ metadata: { name: 'n', finalizers: [] }, spec: { ...spec, resourceClassName: '' } }),
      ),
    ),
    [
      'spec.metadata.name: Forbidden: cannot be set for a template',
      'spec.metadata.finalizers: Forbidden: cannot be set for a template',
      `spec.spec.resourceClassName: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
  );
  const old = t({ spec });
  const changed = msgs(
    validateResourceClaimTemplateUpdate(t({ metadata: { labels: { a: 'b' } }, spec }), old),
  );
  assert.equal(changed.length, 1);
  assert.match(
    changed[0]!,
    /^spec: Invalid value: resource\.ResourceClaimTemplateSpec\{ObjectMeta:v1\.ObjectMeta\{.*Labels:map\[string\]string\{"a":"b"\}.*: field is immutable$/,
  );
});

test('PodSchedulingContext: node name sets in spec and status (status.claims, as v1.27)', () => {
  const p = (s: JsonObject, status?: JsonObject): KubeObject =>
    o('PodSchedulingContext', { spec: s, ...(status === undefined ? {} : { status }) });
  assert.deepEqual(
    msgs(validatePodSchedulingContext(p({ selectedNode: 'n1', potentialNodes: ['n1', 'n2'] }))),
    [],
  );
  assert.deepEqual(msgs(validatePodSchedulingContext(p({ potentialNodes: ['n1', 'n1', 'N_3'] }))), [
    'spec.potentialNodes[1]: Duplicate value: "n1"',
    `spec.potentialNodes[2]: Invalid value: "N_3": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
  const many = Array.from({ length: 129 }, (_, i) => `n${i}`);
  assert.deepEqual(msgs(validatePodSchedulingContext(p({ potentialNodes: many }))), [
    'spec.potentialNodes: Too long: must have at most 128 bytes',
  ]);
  assert.deepEqual(
    msgs(
      validatePodSchedulingContextStatusUpdate(
        p({}, { resourceClaims: [{ name: 'a', unsuitableNodes: ['x', 'x'] }, { name: 'a' }] }),
      ),
    ),
    ['status.claims[0].unsuitableNodes[1]: Duplicate value: "x"', 'status.claims[1]: Duplicate value: "a"'],
  );
});
