import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeOpenApiV2Protobuf } from './v2-protobuf.js';
import { decodeMessage } from './v2-protobuf-decode.js';
import { toGoYaml } from './gnostic/yaml.js';
import type { JsonObject } from '../../util/json.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const refDir = resolve(repoRoot, '../shared/reference/kube-apiserver-v1.28.7/default/openapi');
const refJson = resolve(refDir, 'v2.json');
const refPb = resolve(refDir, 'v2.pb');
const haveRef = existsSync(refJson) && existsSync(refPb);

describe('encodeOpenApiV2Protobuf', () => {
  it(
    'matches kube-apiserver byte for byte on the reference document',
    { skip: haveRef ? false : `reference data not found at ${refDir}` },
    () => {
      const doc = JSON.parse(readFileSync(refJson, 'utf8')) as JsonObject;
      const expected = readFileSync(refPb);
      const start = performance.now();
      const actual = encodeOpenApiV2Protobuf(doc);
      const ms = performance.now() - start;
      // On a mismatch, compare decoded trees first: the diff is then readable.
      if (Buffer.compare(Buffer.from(actual), expected) !== 0) {
        assert.deepEqual(decodeMessage(actual), decodeMessage(expected));
      }
      assert.equal(Buffer.compare(Buffer.from(actual), expected), 0);
      assert.ok(ms < 1000, `encoding took ${ms.toFixed(0)} ms`);
    },
  );

  it('maps vendor extensions, $ref, type, additionalProperties and parameters', () => {
    const doc: JsonObject = {
      swagger: '2.0',
      info: { title: 'T', version: 'v1' },
      paths: {
        '/a': {
          get: {
            parameters: [
              { $ref: '#/parameters/p' },
              { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/X' } },
              { name: 'q', in: 'query', type: 'boolean', uniqueItems: true },
              { name: 'n', in: 'path', type: 'string', required: true },
            ],
            responses: { '200': { description: 'OK', schema: { type: 'string' } } },
            'x-kubernetes-action': 'get',
          },
        },
      },
      definitions: {
        X: {
          type: 'object',
          required: ['a'],
          properties: {
            a: { type: 'string', enum: ['', 'b'] },
            m: { type: 'object', additionalProperties: false },
            l: { type: 'array', items: { type: 'integer', format: 'int64' }, minItems: 0 },
          },
          'x-kubernetes-group-version-kind': [{ group: '', kind: 'X', version: 'v1' }],
        },
      },
      security: [{ BearerToken: [] }],
    };
    const d = decodeMessage(encodeOpenApiV2Protobuf(doc));
    assert.deepEqual(d.info, { title: 'T', version: 'v1' });
    const path = (d.paths as { path: { name: string; value: { get: Record<string, unknown> } }[] }).path[0]!;
    assert.equal(path.name, '/a');
    assert.deepEqual(path.value.get.parameters, [
      { jsonReference: { $ref: '#/parameters/p' } },
      {
        parameter: {
          bodyParameter: { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/X' } },
        },
      },
      {
        parameter: {
          nonBodyParameter: {
            queryParameterSubSchema: { in: 'query', name: 'q', type: 'boolean', uniqueItems: true },
          },
        },
      },
      {
        parameter: {
          nonBodyParameter: {
            pathParameterSubSchema: { required: true, in: 'path', name: 'n', type: 'string' },
          },
        },
      },
    ]);
    assert.deepEqual(path.value.get.vendorExtension, [
      { name: 'x-kubernetes-action', value: { yaml: 'get\n' } },
    ]);
    assert.deepEqual(d.definitions, {
      additionalProperties: [
        {
          name: 'X',
          value: {
            required: ['a'],
            type: { value: ['object'] },
            properties: {
              additionalProperties: [
                {
                  name: 'a',
                  value: { enum: [{ yaml: '""\n' }, { yaml: 'b\n' }], type: { value: ['string'] } },
                },
                {
                  name: 'm',
                  value: { additionalProperties: { boolean: false }, type: { value: ['object'] } },
                },
                {
                  name: 'l',
                  value: {
                    type: { value: ['array'] },
                    items: { schema: [{ format: 'int64', type: { value: ['integer'] } }] },
                  },
                },
              ],
            },
            vendorExtension: [
              {
                name: 'x-kubernetes-group-version-kind',
                value: { yaml: '- group: ""\n  kind: X\n  version: v1\n' },
              },
            ],
          },
        },
      ],
    });
    assert.deepEqual(d.security, [{ additionalProperties: [{ name: 'BearerToken', value: {} }] }]);
  });
});

describe('toGoYaml', () => {
  it('renders scalars like yaml.v3', () => {
    assert.equal(toGoYaml('atomic'), 'atomic\n');
    assert.equal(toGoYaml(''), '""\n');
    assert.equal(toGoYaml('true'), '"true"\n');
    assert.equal(toGoYaml('123'), '"123"\n');
    assert.equal(toGoYaml('a: b'), "'a: b'\n");
    assert.equal(toGoYaml('*x'), "'*x'\n");
    assert.equal(toGoYaml(3), '3\n');
    assert.equal(toGoYaml(false), 'false\n');
    assert.equal(toGoYaml(null), 'null\n');
    assert.equal(toGoYaml({}), '{}\n');
  });

  it('indents nested collections to multiples of four', () => {
    assert.equal(
      toGoYaml([{ discriminator: 'type', 'fields-to-discriminateBy': { queuing: 'Queuing' } }]),
      '- discriminator: type\n  fields-to-discriminateBy:\n    queuing: Queuing\n',
    );
    assert.equal(toGoYaml({ a: { b: 1 }, c: ['x'] }), 'a:\n    b: 1\nc:\n    - x\n');
    assert.equal(toGoYaml(['name', 'port']), '- name\n- port\n');
  });
});
