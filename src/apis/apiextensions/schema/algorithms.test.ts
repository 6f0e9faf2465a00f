import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../../../machinery/field/errors.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { applyDefaults, pruneDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js';
import { validateListSetsAndMaps } from './listtype.js';
import { coerce, validateEmbedded } from './objectmeta.js';
import { prune } from './pruning.js';
import { newStructural } from './structural.js';

const S = (schema: JsonObject) => newStructural(schema);

describe('prune (upstream schema/pruning/algorithm_test.go)', () => {
  const cases: [string, string, JsonObject | undefined, boolean, string, string[]][] = [
    ['scalar', '4', {}, false, '4', []],
    [
      'object array',
      '[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]',
      { items: { properties: { a: {}, c: {} } } },
      false,
      '[{"a":1},{},{"a":1,"c":3}]',
      ['[1].b', '[2].b'],
    ],
    [
      'object array with nil schema',
      '[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]',
      undefined,
      false,
      '[{},{},{}]',
      ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'],
    ],
    [
      'object array object',
      '{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}',
      {
        properties: {
          array: { items: { properties: { a: {}, c: {} } } },
          specified: { properties: { a: {}, c: {} } },
        },
      },
      false,
      '{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}',
      ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
    ],
    [
      'resource root keeps apiVersion, kind, metadata',
      '{"apiVersion":"a/v1","kind":"K","metadata":{"name":"x"},"spec":{"a":1,"b":2},"extra":1}',
      { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } } } } },
      true,
      '{"apiVersion":"a/v1","kind":"K","metadata":{"name":"x"},"spec":{"a":1}}',
      ['extra', 'spec.b'],
    ],
    [
      'preserve-unknown-fields keeps unknown, prunes below specified',
      '{"p":{"x":1,"s":{"y":2,"z":3}}}',
      {
        type: 'object',
        properties: {
          p: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { s: { type: 'object', properties: { y: { type: 'integer' } } } },
          },
        },
      },
      false,
      '{"p":{"x":1,"s":{"y":2}}}',
      ['p.s.z'],
    ],
    [
      'embedded resources keep their type and object meta',
      '{"e":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{},"other":1}}',
      {
        type: 'object',
        properties: {
          e: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object' } },
          },
        },
      },
      false,
      '{"e":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}}}',
      ['e.other'],
    ],
  ];
  for (const [name, json, schema, isRoot, want, pruned] of cases) {
    it(name, () => {
      const obj = JSON.parse(json) as JsonValue;
      const got = prune(obj, schema === undefined ? undefined : S(schema), isRoot, {
        trackUnknownFieldPaths: true,
      });
      assert.deepEqual(obj, JSON.parse(want));
      assert.deepEqual(got, pruned);
    });
  }
});

describe('applyDefaults (upstream schema/defaulting/algorithm_test.go)', () => {
  it('defaults absent fields and non-nullable nulls', () => {
    const schema = S({
      type: 'array',
      items: {
        type: 'object',
        properties: { a: { default: 'A' }, b: { default: 'B' }, c: { default: 'C' } },
      },
    });
    const obj = JSON.parse('[{"a":1},{"b":1},{"c":1}]') as JsonValue;
    applyDefaults(obj, schema);
    assert.deepEqual(
      obj,
      JSON.parse('[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]'),
    );
    const nulls = S({
      type: 'object',
      properties: {
        a: { type: 'string', default: 'A' },
        b: { type: 'string', nullable: true, default: 'B' },
      },
      additionalProperties: false,
    });
    const o2: JsonObject = { a: null, b: null };
    applyDefaults(o2, nulls);
    assert.deepEqual(o2, { a: 'A', b: null });
  });

  it('defaults additionalProperties values', () => {
    const schema = S({
      type: 'object',
      properties: {
        m: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { a: { default: 'alpha' } } },
        },
      },
    });
    const obj = JSON.parse('{"m":{"x":{"a":1},"y":{}}}') as JsonValue;
    applyDefaults(obj, schema);
    assert.deepEqual(obj, { m: { x: { a: 1 }, y: { a: 'alpha' } } });
  });

  it('prunes non-nullable nulls without defaults (upstream prunenulls_test.go)', () => {
    const schema = S({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'string', nullable: true },
        c: { type: 'string', default: 'x' },
        d: { type: 'array', items: { type: 'object', properties: { e: { type: 'string' } } } },
      },
    });
    const obj: JsonObject = { a: null, b: null, c: null, d: [{ e: null }], unknown: null };
    pruneNonNullableNullsWithoutDefaults(obj, schema);
    assert.deepEqual(obj, { b: null, c: null, d: [{}], unknown: null });
  });

  it('prunes defaults as values of the root (upstream PruneDefaults)', () => {
    const schema = S({
      type: 'object',
      properties: {
        spec: { type: 'object', default: { a: 1, unknown: 2 }, properties: { a: { type: 'integer' } } },
      },
    });
    assert.equal(pruneDefaults(schema), true);
    assert.deepEqual(schema.properties?.get('spec')?.generic.default, { a: 1 });
  });
});

describe('validateListSetsAndMaps (upstream schema/listtype/validation_test.go)', () => {
  const root = FieldPath.root('root');
  const check = (schema: JsonObject, obj: JsonObject): string[] =>
    validateListSetsAndMaps(root, S(schema), obj).map(String);

  it('finds repeated set values', () => {
    const set = {
      type: 'object',
      properties: { array: { type: 'array', 'x-kubernetes-list-type': 'set', items: {} } },
    };
    assert.deepEqual(check(set, { array: ['a'] }), []);
    assert.deepEqual(check(set, { array: ['a', 'b', 'a', 'a'] }), ['root.array[2]: Duplicate value: "a"']);
    assert.deepEqual(check(set, { array: [1, 1.5, 1.5] }), ['root.array[2]: Duplicate value: 1.5']);
    assert.deepEqual(check(set, { array: [[1], [1]] }), [
      'root.array[1]: Duplicate value: []interface {}{1}',
    ]);
  });

  it('finds repeated map keys', () => {
    const map1 = {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' }, v: {} } },
        },
      },
    };
    assert.deepEqual(
      check(map1, {
        array: [
          { k: 'a', v: 1 },
          { k: 'a', v: 2 },
        ],
      }),
      ['root.array[1]: Duplicate value: map[string]interface {}{"k":"a"}'],
    );
    assert.deepEqual(check(map1, { array: [{ v: 1 }, { v: 2 }] }), [
      'root.array[1]: Duplicate value: map[string]interface {}{}',
    ]);
    assert.deepEqual(check(map1, { array: [{ k: 'a' }, 'x'] }), [
      'root.array[1]: Invalid value: "x": must be an object for an array of list-type map',
    ]);
    const map2 = {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k1', 'k2'],
          items: { type: 'object', properties: { k1: {}, k2: {} } },
        },
      },
    };
    assert.deepEqual(
      check(map2, {
        array: [
          { k1: 'a', k2: 1 },
          { k1: 'a', k2: 2 },
          { k2: 1, k1: 'a' },
        ],
      }),
      ['root.array[2]: Duplicate value: map[string]interface {}{"k1":"a", "k2":1}'],
    );
  });
});

describe('objectmeta (upstream schema/objectmeta)', () => {
  const schema = S({
    type: 'object',
    properties: {
      embedded: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
    },
  });

  it('coerces metadata to ObjectMeta, reporting and dropping unknown and malformed fields', () => {
    const obj: JsonObject = {
      apiVersion: 'a/v1',
      kind: 'K',
      metadata: { name: 'x', unknown: 1 },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: 5, foo: 'bar' } },
    };
    const r = coerce(undefined, obj, schema, true, {
      dropInvalidFields: true,
      returnUnknownFieldPaths: true,
    });
    assert.equal(r.error, undefined);
    assert.deepEqual(r.unknownFieldPaths, ['embedded.metadata.foo', 'metadata.unknown']);
    assert.deepEqual(obj['metadata'], { name: 'x' });
    assert.deepEqual((obj['embedded'] as JsonObject)['metadata'], { name: 'p' });
  });

  it('refuses malformed metadata without dropping', () => {
    const r = coerce(undefined, { metadata: { name: 5 } }, schema, true);
    assert.equal(
      r.error?.toString(),
      'metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    );
    const k = coerce(undefined, { kind: 5 }, schema, true);
    assert.equal(k.error?.toString(), 'kind: Invalid value: 5: must be a string');
  });

  it('validates embedded resources', () => {
    assert.deepEqual(
      validateEmbedded(
        undefined,
        { embedded: { kind: 'Bad_Kind', metadata: { name: 'a/b' } } },
        schema,
        false,
      ).map(String),
      [
        'embedded.apiVersion: Required value: must not be empty',
        "embedded.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'embedded.metadata.name: Invalid value: "a/b": may not contain \'/\'',
      ],
    );
    assert.deepEqual(
      validateEmbedded(undefined, { embedded: { apiVersion: 'a/b/c', kind: 'Pod' } }, schema, false).map(
        String,
      ),
      ['embedded.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'],
    );
  });
});

describe('unfold (upstream schema/unfold_test.go)', () => {
  it('adds the int-or-string anyOf, or an allOf entry holding it', async () => {
    const { unfold } = await import('./unfold.js');
    const plain = unfold(S({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true } } }));
    const anyOf = plain.properties?.get('a')?.valueValidation?.anyOf ?? [];
    assert.deepEqual(
      anyOf.map((n) => n.forbiddenGenerics.type),
      ['integer', 'string'],
    );
    const withAnyOf = unfold(
      S({
        type: 'object',
        properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 3 }, { pattern: 'x' }] } },
      }),
    );
    const allOf = withAnyOf.properties?.get('a')?.valueValidation?.allOf ?? [];
    assert.deepEqual(
      allOf[0]?.valueValidation.anyOf?.map((n) => n.forbiddenGenerics.type),
      ['integer', 'string'],
    );
  });
});
