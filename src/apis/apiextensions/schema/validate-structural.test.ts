import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../../../machinery/field/errors.js';
import type { JsonObject } from '../../../util/json.js';
import { StructuralConversionError, newStructural } from './structural.js';
import { validateStructural } from './validate-structural.js';
import { loadRe2 } from '../../../util/re2.js';

// RE2 is loaded on first use; these tests call the schema checks directly.
await loadRe2();

const root = FieldPath.root('spec', 'validation', 'openAPIV3Schema');

function errorsOf(schema: JsonObject): string[] {
  return validateStructural(root, newStructural(schema)).map((e) => e.toString());
}

describe('newStructural (upstream schema/convert.go)', () => {
  it('refuses what a structural schema cannot hold', () => {
    for (const [schema, msg] of [
      [{ $ref: '#/x' }, "OpenAPIV3Schema '$ref' is not supported"],
      [{ id: 'x' }, "OpenAPIV3Schema 'id' is not supported"],
      [{ patternProperties: { a: {} } }, "OpenAPIV3Schema 'patternProperties' is not supported"],
      [{ items: [{}] }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
      [
        { properties: { a: { 'x-kubernetes-preserve-unknown-fields': false } } },
        "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
      ],
    ] as const) {
      assert.throws(
        () => newStructural(schema as JsonObject),
        (e) => e instanceof StructuralConversionError && e.message === msg,
      );
    }
  });

  it('splits shape and value validation', () => {
    const s = newStructural({
      type: 'object',
      properties: { a: { type: 'integer', maximum: 3, default: 1 } },
      anyOf: [{ required: ['a'] }],
    });
    const a = s.properties?.get('a');
    assert.equal(a?.generic.type, 'integer');
    assert.equal(a?.generic.default, 1);
    assert.equal(a?.valueValidation?.maximum, 3);
    assert.deepEqual(s.valueValidation?.anyOf?.[0]?.valueValidation.required, ['a']);
  });
});

describe('validateStructural (upstream schema/validation.go, complete.go)', () => {
  it('requires types', () => {
    assert.deepEqual(errorsOf({ properties: { a: {}, b: { type: 'array', items: {} } } }), [
      'spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields',
      'spec.validation.openAPIV3Schema.properties[b].items.type: Required value: must not be empty for specified array items',
      'spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root',
    ]);
    assert.deepEqual(errorsOf({ type: 'string' }), [
      'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ]);
    assert.deepEqual(errorsOf({ type: 'object', properties: { a: { type: 'array' } } }), [
      'spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified',
    ]);
  });

  it('forbids generics and extensions in value validations', () => {
    assert.deepEqual(
      errorsOf({
        type: 'object',
        properties: { a: { type: 'string' } },
        anyOf: [{ type: 'object', description: 'd', properties: { a: { nullable: true } } }],
      }),
      [
        'spec.validation.openAPIV3Schema.anyOf[0].description: Forbidden: must be empty to be structural',
        'spec.validation.openAPIV3Schema.anyOf[0].properties[a].nullable: Forbidden: must be false to be structural',
        'spec.validation.openAPIV3Schema.anyOf[0].type: Forbidden: must be empty to be structural',
      ],
    );
  });

  it('accepts the int-or-string patterns', () => {
    const intOrString = {
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    };
    assert.deepEqual(errorsOf({ type: 'object', properties: { a: intOrString } }), []);
    assert.deepEqual(
      errorsOf({
        type: 'object',
        properties: {
          a: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: intOrString.anyOf }, { pattern: 'a' }] },
        },
      }),
      [],
    );
  });

  it('requires fields named in value validations (completeness)', () => {
    assert.deepEqual(
      errorsOf({ type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { b: {} } }] }),
      [
        'spec.validation.openAPIV3Schema.properties[b]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[b]',
      ],
    );
  });

  it('restricts metadata at the root and checks embedded resources', () => {
    assert.deepEqual(
      errorsOf({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } },
      }),
      [],
    );
    assert.deepEqual(
      errorsOf({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      }),
      [
        'spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      ],
    );
    assert.deepEqual(
      errorsOf({
        type: 'object',
        properties: {
          e: { 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } },
        },
      }),
      [
        'spec.validation.openAPIV3Schema.properties[e].properties[kind].type: Invalid value: "integer": must be string',
        'spec.validation.openAPIV3Schema.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true',
      ],
    );
  });

  it('checks patterns with Go regexp syntax', () => {
    assert.deepEqual(errorsOf({ type: 'object', properties: { a: { type: 'string', pattern: 'a(' } } }), [
      'spec.validation.openAPIV3Schema.properties[a].pattern: Invalid value: "a(": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ): `a(`',
    ]);
  });
});
