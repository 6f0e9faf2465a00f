import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { JsonObject } from '../../../util/json.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './validation.js';

function rc(fields: JsonObject): KubeObject {
  return { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, ...fields };
}
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

test('handler is a DNS label', () => {
  assert.deepEqual(validateRuntimeClass(rc({ handler: 'runsc' })), []);
  assert.deepEqual(messages(validateRuntimeClass(rc({ handler: 'run.sc' }))), [
    'handler: Invalid value: "run.sc": must not contain dots',
  ]);
  assert.deepEqual(messages(validateRuntimeClass(rc({ handler: 'Run_SC' }))), [
    `handler: Invalid value: "Run_SC": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  assert.equal(validateRuntimeClass(rc({})).length, 1, 'a missing handler is the empty string, invalid');
});

test('overhead is checked as container limits', () => {
  assert.deepEqual(
    validateRuntimeClass(rc({ handler: 'h', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } })),
    [],
  );
  assert.deepEqual(
    messages(validateRuntimeClass(rc({ handler: 'h', overhead: { podFixed: { cpu: '-1', pods: '1' } } }))),
    [
      'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers',
    ].sort(),
  );
});

test('scheduling: node selector labels, tolerations as core checks them, and no duplicates', () => {
  assert.deepEqual(
    validateRuntimeClass(
      rc({
        handler: 'h',
        scheduling: {
          nodeSelector: { 'sandbox.example.com/runtime': 'gvisor' },
          tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }],
        },
      }),
    ),
    [],
  );
  assert.deepEqual(
    messages(
      validateRuntimeClass(
        rc({
          handler: 'h',
          scheduling: {
            nodeSelector: { 'bad key': 'v' },
            tolerations: [
              { key: 'k', operator: 'Exists', value: 'v' },
              { operator: 'Equal', value: 'has space', tolerationSeconds: 5 },
              { key: 'k', operator: 'Maybe', effect: 'Sometimes' },
              { key: 'd', value: 'x', effect: 'NoExecute', tolerationSeconds: 1 },
              { key: 'd', value: 'x', effect: 'NoExecute', tolerationSeconds: 2 },
            ],
          },
        }),
      ),
    ),
    [
      `scheduling.nodeSelector: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `scheduling.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when \`operator\` is 'Exists'`,
      'scheduling.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'scheduling.tolerations[1].effect: Invalid value: "": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      `scheduling.tolerations[1].operator: Invalid value: "has space": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      'scheduling.tolerations[2].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
      'scheduling.tolerations[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'scheduling.tolerations[4]: Duplicate value: core.Toleration{Key:"d", Operator:"", Value:"x", Effect:"NoExecute", TolerationSeconds:(*int64)(0xc000010000)}',
    ],
  );
});

test('the handler is immutable', () => {
  assert.deepEqual(validateRuntimeClassUpdate(rc({ handler: 'a' }), rc({ handler: 'a' })), []);
  assert.deepEqual(messages(validateRuntimeClassUpdate(rc({ handler: 'b' }), rc({ handler: 'a' }))), [
    'handler: Invalid value: "b": field is immutable',
  ]);
});
