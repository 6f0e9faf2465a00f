import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeObject } from './decode.js';
import type { FieldValidation } from './decode.js';
import { strictDecodingErrorMessage, strictDecodingWarnings } from './messages.js';
import type { Definition, RefSchema, Schema, SchemaRegistry } from '../schema/types.js';

/** A tiny registry for hand-written definitions. */
function registryOf(defs: Definition[]): SchemaRegistry {
  const byName = new Map(defs.map((d) => [d.name, d]));
  return {
    get: (name) => byName.get(name),
    resolve(schema) {
      let s: Schema = schema;
      while ('ref' in s) {
        const target = byName.get(s.ref);
        if (target === undefined) throw new Error(`unknown ${s.ref}`);
        s = target.schema;
      }
      return s;
    },
    all: () => byName.values(),
  };
}

const ref = (name: string): RefSchema => ({ ref: name });
const str: Schema = { type: 'string' };
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const DEPLOY = 'io.k8s.api.apps.v1.Deployment';
const SPEC = 'io.k8s.api.apps.v1.DeploymentSpec';
const CONTAINER = 'io.k8s.api.core.v1.Container';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INTSTR = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const RAW = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

const fake = registryOf([
  { name: QUANTITY, schema: str },
  { name: INTSTR, schema: { type: 'int-or-string' } },
  { name: TIME, schema: { type: 'string', format: 'date-time' } },
  { name: RAW, schema: { type: 'any', asObject: true } },
  {
    name: META,
    schema: {
      type: 'object',
      properties: {
        name: str,
        labels: { type: 'object', additionalProperties: str },
        creationTimestamp: ref(TIME),
        generation: { type: 'integer', format: 'int64' },
      },
    },
  },
  {
    name: CONTAINER,
    schema: {
      type: 'object',
      properties: {
        name: str,
        image: str,
        limits: { type: 'object', additionalProperties: ref(QUANTITY) },
        secret: { type: 'string', format: 'byte' },
      },
    },
  },
  {
    name: SPEC,
    schema: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', format: 'int32' },
        paused: { type: 'boolean' },
        maxSurge: ref(INTSTR),
        containers: { type: 'array', items: ref(CONTAINER) },
        extra: ref(RAW),
      },
    },
  },
  {
    name: DEPLOY,
    schema: {
      type: 'object',
      properties: { apiVersion: str, kind: str, metadata: ref(META), spec: ref(SPEC) },
    },
  },
]);

function decode(raw: string, fieldValidation: FieldValidation = 'Strict', registry = fake) {
  return decodeObject({ registry, definition: DEPLOY, body: JSON.parse(raw), raw, fieldValidation });
}

describe('decodeObject', () => {
  it('keeps a valid object unchanged', () => {
    const body = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a', labels: { app: 'x' } },
      spec: {
        replicas: 3,
        maxSurge: '25%',
        containers: [{ name: 'c', limits: { cpu: '1' } }],
        extra: { any: [1] },
      },
    };
    const r = decode(JSON.stringify(body));
    const expected = { ...body, metadata: { ...body.metadata, creationTimestamp: null } };
    assert.deepEqual(r, { object: expected, errors: [], unknownFields: [], duplicateFields: [] });
  });

  it('reports type mismatches with Go wording', () => {
    const cases: [string, string][] = [
      [
        '{"spec":{"replicas":"3"}}',
        'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      ],
      [
        '{"spec":{"replicas":1.5}}',
        'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
      ],
      [
        '{"spec":{"replicas":3000000000}}',
        'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
      ],
      [
        '{"spec":"x"}',
        'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec',
      ],
      [
        '{"spec":{"containers":{}}}',
        'json: cannot unmarshal object into Go struct field DeploymentSpec.spec.containers of type []v1.Container',
      ],
      [
        '{"spec":{"containers":[{"image":5}]}}',
        'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string',
      ],
      [
        '{"metadata":{"labels":{"a":1}}}',
        'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
      ],
      [
        '{"spec":{"paused":"yes"}}',
        'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
      ],
      [
        '{"spec":{"maxSurge":true}}',
        'json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.maxSurge of type int32',
      ],
      [
        '{"metadata":{"creationTimestamp":5}}',
        'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
      ],
      [
        '{"spec":{"containers":[{"limits":{"cpu":"abc"}}]}}',
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ],
      ['{"spec":{"containers":[{"secret":"a!=="}]}}', 'illegal base64 data at input byte 1'],
    ];
    for (const [raw, message] of cases) assert.deepEqual(decode(raw).errors, [message], raw);
    assert.deepEqual(
      decodeObject({ registry: fake, definition: DEPLOY, body: [], fieldValidation: 'Strict' }).errors,
      ['json: cannot unmarshal array into Go value of type v1.Deployment'],
    );
  });

  it('drops nulls and accepts int-or-string and numeric quantities', () => {
    const r = decode(
      '{"metadata":{"name":null},"spec":{"replicas":null,"maxSurge":2,"containers":[{"limits":{"cpu":2}}]}}',
    );
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.object, {
      metadata: { creationTimestamp: null },
      spec: { maxSurge: 2, containers: [{ limits: { cpu: '2' } }] },
    });
  });

  it('prunes unknown fields and reports them with upstream paths', () => {
    const raw =
      '{"apiVersion":"apps/v1","foo":1,"spec":{"foo":{"x":1},"bar":2,"containers":[{"name":"a","nope":true}],"extra":{"free":1}}}';
    for (const fv of ['Strict', 'Warn'] as const) {
      const r = decode(raw, fv);
      assert.deepEqual(r.object, {
        apiVersion: 'apps/v1',
        spec: { containers: [{ name: 'a' }], extra: { free: 1 } },
      });
      assert.deepEqual(r.unknownFields, ['foo', 'spec.foo', 'spec.bar', 'spec.containers[0].nope']);
    }
    const ignored = decode(raw, 'Ignore');
    assert.deepEqual(ignored.unknownFields, []);
    assert.deepEqual(ignored.object, decode(raw).object);
    assert.equal(
      strictDecodingErrorMessage(decode('{"spec":{"foo":1,"bar":2}}')),
      'strict decoding error: unknown field "spec.foo", unknown field "spec.bar"',
    );
  });

  it('detects duplicate fields on known paths; last value wins', () => {
    const raw =
      '{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"spec":{"containers":[{"name":"c"},{"name":"d","name":"e"}],"unk":{"q":1,"q":2}}}';
    const r = decode(raw);
    assert.deepEqual(r.duplicateFields, ['metadata.name', 'metadata.labels.x', 'spec.containers[1].name']);
    assert.equal(r.object.metadata && (r.object.metadata as { name: string }).name, 'b');
    assert.deepEqual(strictDecodingWarnings(r).slice(-3), [
      'duplicate field "metadata.name"',
      'duplicate field "metadata.labels.x"',
      'duplicate field "spec.containers[1].name"',
    ]);
    assert.deepEqual(decode(raw, 'Ignore').duplicateFields, []);
  });

  it('leaves apiVersion and kind to the handler', () => {
    const r = decode('{"apiVersion":5,"kind":null}');
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.object, { apiVersion: 5 });
  });

  const builtin = resolve(dirname(fileURLToPath(import.meta.url)), '../schema/builtin.ts');
  it(
    'decodes against the real apps/v1 Deployment schema',
    { skip: existsSync(builtin) ? false : 'src/apis/schema/builtin.ts not present' },
    async () => {
      const { builtinSchemas } = await import('../schema/builtin.js');
      const raw = JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', labels: { app: 'web' } },
        spec: {
          replicas: '3',
          selector: { matchLabels: { app: 'web' } },
          strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [
                {
                  name: 'nginx',
                  image: 'nginx',
                  bogus: 1,
                  resources: { limits: { cpu: '500m', memory: 1024 } },
                },
              ],
            },
          },
        },
      });
      const r = decode(raw, 'Strict', builtinSchemas());
      assert.deepEqual(r.errors, [
        'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      ]);
      assert.deepEqual(r.unknownFields, ['spec.template.spec.containers[0].bogus']);
      const ok = decode(raw.replace('"replicas":"3"', '"replicas":3'), 'Strict', builtinSchemas());
      assert.deepEqual(ok.errors, []);
      const spec = ok.object.spec as { template: { spec: { containers: { resources: unknown }[] } } };
      assert.deepEqual(spec.template.spec.containers[0]!.resources, {
        limits: { cpu: '500m', memory: '1024' },
      });
    },
  );
});
