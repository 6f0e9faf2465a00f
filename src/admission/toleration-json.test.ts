import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tolerationsFromJson, tolerationsFromText } from './toleration-json.js';

test('decodes as encoding/json into []v1.Toleration, canonically', () => {
  assert.deepEqual(tolerationsFromText('null'), { ok: true, tolerations: undefined });
  assert.deepEqual(tolerationsFromText('[]'), { ok: true, tolerations: [] });
  assert.deepEqual(
    tolerationsFromJson([
      null,
      { key: 'k', operator: '', value: null, effect: 'NoExecute', tolerationSeconds: 3, x: 1 },
    ]),
    { ok: true, tolerations: [{}, { key: 'k', effect: 'NoExecute', tolerationSeconds: 3 }] },
  );
});

test('type errors carry Go’s UnmarshalTypeError text', () => {
  assert.deepEqual(tolerationsFromJson({}), {
    ok: false,
    error: 'json: cannot unmarshal object into Go value of type []v1.Toleration',
  });
  assert.deepEqual(tolerationsFromJson(['x']), {
    ok: false,
    error: 'json: cannot unmarshal string into Go value of type v1.Toleration',
  });
  assert.deepEqual(tolerationsFromJson([{ operator: 1 }]), {
    ok: false,
    error:
      'json: cannot unmarshal number 1 into Go struct field Toleration.operator of type v1.TolerationOperator',
  });
  assert.deepEqual(tolerationsFromJson([{ tolerationSeconds: 1.5 }]), {
    ok: false,
    error:
      'json: cannot unmarshal number 1.5 into Go struct field Toleration.tolerationSeconds of type int64',
  });
  assert.equal(tolerationsFromText('[').ok, false);
});
