import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evalJsonPath, jsonPathText, JsonPathError, parseJsonPath } from './jsonpath.js';

const doc = {
  metadata: { name: 'n', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { replicas: 3, ports: [{ port: 80 }, { port: 443 }], big: 1e21 },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

describe('jsonpath (client-go subset, printer columns)', () => {
  const at = (p: string) => evalJsonPath(parseJsonPath(p), doc);
  it('reads fields, indexes, quoted keys, wildcards, slices and recursive descent', () => {
    assert.deepEqual(at('.spec.replicas'), [3]);
    assert.deepEqual(at('{.spec.replicas}'), [3]);
    assert.deepEqual(at('.status.conditions[0].type'), ['Ready']);
    assert.deepEqual(at(".metadata.labels['app.kubernetes.io/name']"), ['web']);
    assert.deepEqual(at('.spec.ports[*].port'), [80, 443]);
    assert.deepEqual(at('.spec.ports[-1].port'), [443]);
    assert.deepEqual(at('.spec.ports[0:1].port'), [80]);
    assert.deepEqual(at('..port'), [80, 443]);
  });
  it('finds nothing on missing keys and out-of-range indexes', () => {
    assert.deepEqual(at('.spec.missing'), []);
    assert.deepEqual(at('.spec.ports[5]'), []);
  });
  it('refuses filters', () => {
    assert.throws(() => parseJsonPath('.spec.ports[?(@.port==80)]'), JsonPathError);
  });
  it('prints values as jsonpath does', () => {
    assert.equal(jsonPathText('x'), 'x');
    assert.equal(jsonPathText(3), '3');
    assert.equal(jsonPathText(1e21), '1e+21');
    assert.equal(jsonPathText(true), 'true');
    assert.equal(jsonPathText({ a: 1 }), '{"a":1}');
  });
});
