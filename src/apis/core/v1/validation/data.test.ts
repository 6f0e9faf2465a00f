import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../../../machinery/field/errors.js';
import { validateConfigMap, validateConfigMapUpdate } from './configmap.js';
import { validateNamespace, validateNamespaceStatusUpdate } from './namespace.js';
import { validateSecret, validateSecretUpdate } from './secret.js';

const msgs = (errs: FieldError[]): string[] => errs.map((e) => e.toString());

describe('configmap validation', () => {
  it('checks keys with the upstream message', () => {
    assert.deepEqual(msgs(validateConfigMap({ data: { 'a b': 'x', '..x': 'y' } })), [
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      `data[..x]: Invalid value: "..x": must not start with '..'`,
    ]);
  });

  it('limits the total size to 1 MiB', () => {
    const out = msgs(validateConfigMap({ data: { a: 'x'.repeat(1024 * 1024 + 1) } }));
    assert.deepEqual(out, [': Too long: must have at most 1048576 bytes']);
  });

  it('freezes data once immutable', () => {
    const old = { data: { a: '1' }, immutable: true };
    assert.deepEqual(msgs(validateConfigMapUpdate({ data: { a: '2' }, immutable: true }, old)), [
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    assert.deepEqual(msgs(validateConfigMapUpdate({ data: { a: '1' } }, old)), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
});

describe('secret validation', () => {
  it('words a bad docker config as Go json.Unmarshal does, never echoing the contents', () => {
    const docker = (text: string): string[] =>
      msgs(
        validateSecret({
          type: 'kubernetes.io/dockerconfigjson',
          data: { '.dockerconfigjson': Buffer.from(text).toString('base64') },
        }),
      );
    const redacted = 'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": ';
    assert.deepEqual(docker('{not json s3cr3t}'), [
      `${redacted}invalid character 'n' looking for beginning of object key string`,
    ]);
    assert.deepEqual(docker(''), [`${redacted}unexpected end of JSON input`]);
    assert.deepEqual(docker('true'), [
      `${redacted}json: cannot unmarshal bool into Go value of type map[string]interface {}`,
    ]);
    assert.deepEqual(docker('[1]'), [
      `${redacted}json: cannot unmarshal array into Go value of type map[string]interface {}`,
    ]);
    assert.deepEqual(docker('null'), []);
  });

  it('requires type-specific keys', () => {
    assert.deepEqual(msgs(validateSecret({ type: 'kubernetes.io/tls', data: {} })), [
      'data[tls.crt]: Required value',
      'data[tls.key]: Required value',
    ]);
    assert.deepEqual(msgs(validateSecret({ type: 'kubernetes.io/dockerconfigjson', data: {} })), [
      'data[.dockerconfigjson]: Required value',
    ]);
    assert.deepEqual(msgs(validateSecret({ type: 'kubernetes.io/service-account-token', metadata: {} })), [
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ]);
    assert.deepEqual(msgs(validateSecret({ type: 'kubernetes.io/basic-auth', data: { username: '' } })), []);
  });

  it('keeps the type and immutable data fixed', () => {
    assert.deepEqual(msgs(validateSecretUpdate({ type: 'Other' }, { type: 'Opaque' })), [
      'type: Invalid value: "Other": field is immutable',
    ]);
    assert.deepEqual(
      msgs(
        validateSecretUpdate(
          { type: 'Opaque', data: { a: 'Yg==' }, immutable: true },
          { type: 'Opaque', data: { a: 'YQ==' }, immutable: true },
        ),
      ),
      ['data: Forbidden: field is immutable when `immutable` is set'],
    );
  });
});

describe('namespace validation', () => {
  it('checks finalizer names', () => {
    assert.deepEqual(
      msgs(validateNamespace({ spec: { finalizers: ['kubernetes', 'example.com/x', 'custom'] } })),
      [
        'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    );
  });

  it('ties the status phase to deletion', () => {
    assert.deepEqual(
      msgs(validateNamespaceStatusUpdate({ metadata: {}, status: { phase: 'Terminating' } })),
      ['status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty'],
    );
  });
});
