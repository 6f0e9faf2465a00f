import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../../../machinery/field/errors.js';
import type { FieldErrorType } from '../../../machinery/field/errors.js';
import type { JsonObject } from '../../../util/json.js';
import { createSchemaOptions, updateSchemaOptions, validateCRDOpenAPISchema } from './crd-schema.js';
import type { CRDSchemaOptions } from './crd-schema.js';

const root = FieldPath.root('spec', 'validation', 'openAPIV3Schema');
const P = 'spec.validation.openAPIV3Schema';

/** Upstream's zero validationOptions (defaults not allowed, nothing required). */
const zero: CRDSchemaOptions = {
  allowDefaults: false,
  requireValidPropertyType: false,
  requireStructuralSchema: false,
  requirePrunedDefaults: false,
  requireAtomicSetType: false,
  requireMapListKeysMapSetValidation: false,
};

type Match = [FieldErrorType, string];
const required = (p: string): Match => ['FieldValueRequired', p];
const invalid = (p: string): Match => ['FieldValueInvalid', p];
const forbidden = (p: string): Match => ['FieldValueForbidden', p];
const unsupported = (p: string): Match => ['FieldValueNotSupported', p];

function matches(schema: JsonObject, opts: Partial<CRDSchemaOptions>): Match[] {
  return validateCRDOpenAPISchema(schema, root, { ...zero, ...opts })
    .map((e): Match => [e.type, e.field])
    .sort();
}

const mapItems = (props: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['key'],
  items: { type: 'object', properties: props, ...extra },
});

// Upstream pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinitionValidation.
const cases: [string, JsonObject, Partial<CRDSchemaOptions>, Match[]][] = [
  ['null type', { properties: { null: { type: 'null' } } }, {}, [forbidden(`${P}.properties[null].type`)]],
  ["must be structural, but isn't", {}, { requireStructuralSchema: true }, [required(`${P}.type`)]],
  ['must be structural', { type: 'object' }, { requireStructuralSchema: true }, []],
  [
    'require valid types, invalid null',
    { type: 'null' },
    { requireValidPropertyType: true, requireStructuralSchema: true },
    [forbidden(`${P}.type`), invalid(`${P}.type`), unsupported(`${P}.type`)],
  ],
  [
    'require valid types, invalid bogus',
    { type: 'bogus' },
    { requireValidPropertyType: true, requireStructuralSchema: true },
    [invalid(`${P}.type`), unsupported(`${P}.type`)],
  ],
  [
    'invalid type with list type extension set',
    { type: 'object', 'x-kubernetes-list-type': 'set' },
    {},
    [invalid(`${P}.type`)],
  ],
  [
    'unset type with list type extension set',
    { 'x-kubernetes-list-type': 'set' },
    {},
    [required(`${P}.type`)],
  ],
  [
    'invalid list type extension',
    { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'invalid' },
    {},
    [unsupported(`${P}.x-kubernetes-list-type`)],
  ],
  [
    'invalid list type extension with list map keys extension non-empty',
    {
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-list-map-keys': ['key'],
    },
    {},
    [invalid(`${P}.x-kubernetes-list-type`)],
  ],
  [
    'unset list type extension with list map keys extension non-empty',
    { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['key'] },
    {},
    [required(`${P}.x-kubernetes-list-type`)],
  ],
  [
    'empty list map keys extension with list type extension map',
    { type: 'array', 'x-kubernetes-list-type': 'map' },
    {},
    [required(`${P}.items`), required(`${P}.x-kubernetes-list-map-keys`)],
  ],
  [
    'multiple schema items with list type extension map',
    {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: [{ type: 'string' }, { type: 'integer' }],
    },
    {},
    [forbidden(`${P}.items`), invalid(`${P}.items`)],
  ],
  [
    'non object item with list type extension map',
    {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key'],
      items: { type: 'string' },
    },
    {},
    [invalid(`${P}.items.type`)],
  ],
  [
    'items with key missing from properties with list type extension map',
    mapItems({ key2: { type: 'string' } }),
    {},
    [invalid(`${P}.x-kubernetes-list-map-keys`)],
  ],
  [
    'items with non scalar key property type with list type extension map',
    mapItems({ key: { type: 'object' } }),
    {},
    [invalid(`${P}.items.properties[key].type`)],
  ],
  [
    'duplicate map keys with list type extension map',
    { ...mapItems({ key: { type: 'string' } }), 'x-kubernetes-list-map-keys': ['key', 'key'] },
    {},
    [invalid(`${P}.x-kubernetes-list-map-keys`)],
  ],
  ['allowed schema with list type extension map', mapItems({ key: { type: 'string' } }), {}, []],
  [
    'invalid list-type set with non-atomic map items',
    {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'object', 'x-kubernetes-map-type': 'granular' },
    },
    { requireAtomicSetType: true },
    [invalid(`${P}.items.x-kubernetes-map-type`)],
  ],
  [
    'invalid list-type set with unspecified map-type for map items',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } },
    { requireAtomicSetType: true },
    [invalid(`${P}.items.x-kubernetes-map-type`)],
  ],
  [
    'invalid list-type set with with non-atomic list items',
    {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    },
    { requireAtomicSetType: true },
    [invalid(`${P}.items.x-kubernetes-list-type`)],
  ],
  [
    'invalid type with map type extension (granular)',
    { type: 'array', 'x-kubernetes-map-type': 'granular' },
    {},
    [invalid(`${P}.type`)],
  ],
  [
    'unset type with map type extension (atomic)',
    { 'x-kubernetes-map-type': 'atomic' },
    {},
    [required(`${P}.type`)],
  ],
  [
    'invalid map type',
    { type: 'object', 'x-kubernetes-map-type': 'badMapType' },
    {},
    [unsupported(`${P}.x-kubernetes-map-type`)],
  ],
  [
    'invalid map with non-required key and no default',
    mapItems({ key: { type: 'string' } }),
    { requireMapListKeysMapSetValidation: true },
    [required(`${P}.items.properties[key].default`)],
  ],
  [
    'allowed map with required key and no default',
    mapItems({ key: { type: 'string' } }, { required: ['key'] }),
    { requireMapListKeysMapSetValidation: true },
    [],
  ],
  [
    'invalid map with nullable items',
    mapItems({ key: { type: 'string' } }, { nullable: true }),
    { requireMapListKeysMapSetValidation: true },
    [forbidden(`${P}.items.nullable`), required(`${P}.items.properties[key].default`)],
  ],
  [
    'valid map with some required, some defaulted, and non-key fields',
    {
      ...mapItems(
        {
          key: { type: 'string' },
          a: { type: 'string' },
          b: { type: 'string', default: 'stuff' },
          c: { type: 'int' },
        },
        { required: ['a', 'c'] },
      ),
      'x-kubernetes-list-map-keys': ['a'],
    },
    { requireMapListKeysMapSetValidation: true },
    [forbidden(`${P}.items.properties[b].default`)],
  ],
  [
    'invalid set with nullable items',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } },
    { requireMapListKeysMapSetValidation: true },
    [forbidden(`${P}.items.nullable`)],
  ],
  [
    'invalid x-kubernetes-validations with empty rule',
    { type: 'object', 'x-kubernetes-validations': [{ message: 'empty' }] },
    {},
    [required(`${P}.x-kubernetes-validations[0].rule`)],
  ],
  [
    'x-kubernetes-validations messages',
    {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.a', message: ' ' },
        { rule: 'self.a', message: 'a\nb' },
        { rule: 'self.a\n|| self.b' },
        { rule: 'self.a', messageExpression: ' ' },
      ],
    },
    {},
    [
      invalid(`${P}.x-kubernetes-validations[0].message`),
      invalid(`${P}.x-kubernetes-validations[1].message`),
      required(`${P}.x-kubernetes-validations[2].message`),
      required(`${P}.x-kubernetes-validations[3].messageExpression`),
    ],
  ],
  [
    'forbidden keywords',
    {
      type: 'object',
      properties: {
        a: { $ref: '#/x', uniqueItems: true, additionalItems: false, patternProperties: { x: {} } },
      },
    },
    {},
    [
      forbidden(`${P}.properties[a].$ref`),
      forbidden(`${P}.properties[a].additionalItems`),
      forbidden(`${P}.properties[a].patternProperties`),
      forbidden(`${P}.properties[a].uniqueItems`),
    ],
  ],
  [
    'additionalProperties and properties',
    {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: { b: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      },
    },
    {},
    [forbidden(`${P}.properties[a].additionalProperties`)],
  ],
];

describe('validateCRDOpenAPISchema (upstream TestValidateCustomResourceDefinitionValidation)', () => {
  for (const [name, schema, opts, want] of cases) {
    it(name, () => assert.deepEqual(matches(schema, opts), [...want].sort()));
  }
});

describe('validateCRDOpenAPISchema messages with create options', () => {
  const errs = (schema: JsonObject): string[] =>
    validateCRDOpenAPISchema(schema, root, createSchemaOptions).map(String);

  it('reports structural errors with exact messages', () => {
    assert.deepEqual(
      errs({ type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } }),
      [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`],
    );
  });

  it('forbids defaults in metadata, apiVersion and kind', () => {
    assert.deepEqual(errs({ type: 'object', properties: { metadata: { type: 'object', default: {} } } }), [
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it('requires pruned and valid defaults', () => {
    assert.deepEqual(
      errs({
        type: 'object',
        properties: {
          spec: { type: 'object', default: { a: 'x', b: 1 }, properties: { a: { type: 'integer' } } },
        },
      }),
      [
        `${P}.properties[spec].default: Invalid value: map[string]interface {}{"a":"x", "b":1}: must not have unknown fields`,
        `${P}.properties[spec].default.a: Invalid value: "string": a in body must be of type integer: "string"`,
      ],
    );
    assert.deepEqual(
      errs({ type: 'object', properties: { n: { type: 'integer', maximum: 3, default: 5 } } }),
      [
        `${P}.properties[n].default: Invalid value: 5: ${P}.properties[n].default in body should be less than or equal to 3`.replace(
          `${P}.properties[n].default in body`,
          ' in body',
        ),
      ],
    );
  });

  it('reports conversion errors only without other errors', () => {
    assert.deepEqual(
      errs({
        type: 'object',
        properties: { a: { type: 'string', 'x-kubernetes-preserve-unknown-fields': false } },
      }),
      [
        `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      ],
    );
    assert.deepEqual(errs({ type: 'object', properties: { a: { type: 'array', items: [] } } }), [
      `${P}.properties[a].items: Required value: must be specified`,
    ]);
  });

  it('calls the CEL seam only for otherwise valid schemas', () => {
    const seen: string[] = [];
    const opts: CRDSchemaOptions = {
      ...createSchemaOptions,
      validateRules: (s, p) => {
        seen.push(`${p.toString()}:${s.generic.type}`);
        return [];
      },
    };
    validateCRDOpenAPISchema({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] }, root, opts);
    validateCRDOpenAPISchema({ type: 'string' }, root, opts);
    assert.deepEqual(seen, [`${P}:object`]);
  });
});

describe('updateSchemaOptions', () => {
  it('does not tighten what the old schemas already break', () => {
    const o = updateSchemaOptions([{ type: 'object', properties: { a: {} } }]);
    assert.equal(o.requireStructuralSchema, false);
    assert.equal(o.requirePrunedDefaults, true);
    assert.equal(updateSchemaOptions([{ type: 'object' }]).requireStructuralSchema, true);
    assert.equal(
      updateSchemaOptions([{ type: 'object', properties: { a: { type: 'bogus' } } }])
        .requireValidPropertyType,
      false,
    );
    assert.equal(
      updateSchemaOptions([{ type: 'object', properties: { s: { type: 'object', default: { x: 1 } } } }])
        .requirePrunedDefaults,
      false,
    );
  });
});
