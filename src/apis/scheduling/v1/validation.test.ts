import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { defaultPriorityClass } from './defaults.js';
import { validatePriorityClass, validatePriorityClassUpdate } from './validation.js';

function pc(name: string, fields: JsonObject): KubeObject {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, ...fields };
}
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

test('preemptionPolicy defaults to PreemptLowerPriority, a set one is kept', () => {
  const a: JsonObject = { value: 1 };
  defaultPriorityClass(a);
  assert.equal(a['preemptionPolicy'], 'PreemptLowerPriority');
  const b: JsonObject = { value: 1, preemptionPolicy: 'Never' };
  defaultPriorityClass(b);
  assert.equal(b['preemptionPolicy'], 'Never');
});

test('user classes: value at most 1e9, any lower value, a known preemption policy', () => {
  assert.deepEqual(validatePriorityClass(pc('high', { value: 1000000000 })), []);
  assert.deepEqual(validatePriorityClass(pc('low', { value: -2147483648 })), []);
  assert.deepEqual(messages(validatePriorityClass(pc('too-high', { value: 1000000001 }))), [
    'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
  ]);
  assert.deepEqual(messages(validatePriorityClass(pc('p', { value: 1, preemptionPolicy: 'Sometimes' }))), [
    'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
  ]);
  assert.deepEqual(messages(validatePriorityClass(pc('p', { value: 1, preemptionPolicy: '' }))), [
    'preemptionPolicy: Required value',
  ]);
});

test('the system- prefix is reserved for the two system classes, exactly as defined', () => {
  assert.deepEqual(validatePriorityClass(pc('system-node-critical', { value: 2000001000 })), []);
  assert.deepEqual(validatePriorityClass(pc('system-cluster-critical', { value: 2000000000 })), []);
  const reserved =
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: ";
  assert.deepEqual(messages(validatePriorityClass(pc('system-mine', { value: 5 }))), [
    `${reserved}system-mine is not a known system priority class`,
  ]);
  assert.deepEqual(messages(validatePriorityClass(pc('system-node-critical', { value: 5 }))), [
    `${reserved}value of system-node-critical PriorityClass must be 2000001000`,
  ]);
  assert.deepEqual(
    messages(
      validatePriorityClass(pc('system-cluster-critical', { value: 2000000000, globalDefault: true })),
    ),
    [`${reserved}globalDefault of system-cluster-critical PriorityClass must be false`],
  );
  // A system name is not held to the user maximum; a bad policy is still reported after it.
  assert.deepEqual(
    messages(validatePriorityClass(pc('system-x', { value: 3000000000, preemptionPolicy: 'X' }))),
    [
      `${reserved}system-x is not a known system priority class`,
      'preemptionPolicy: Unsupported value: "X": supported values: "PreemptLowerPriority", "Never"',
    ],
  );
});

test('value and preemptionPolicy are immutable; description and globalDefault may change', () => {
  const old = pc('p', { value: 10, preemptionPolicy: 'PreemptLowerPriority' });
  assert.deepEqual(
    validatePriorityClassUpdate(
      pc('p', { value: 10, preemptionPolicy: 'PreemptLowerPriority', description: 'x', globalDefault: true }),
      old,
    ),
    [],
  );
  assert.deepEqual(
    messages(validatePriorityClassUpdate(pc('p', { value: 11, preemptionPolicy: 'Never' }), old)),
    [
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ],
  );
});
