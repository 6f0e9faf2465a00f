import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../../../machinery/field/errors.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import { newSchemaValidator, validateCustomResource } from './custom-resource.js';
import { loadRe2 } from '../../../util/re2.js';

// RE2 is loaded on first use; these tests call the schema checks directly.
await loadRe2();

interface Case {
  name: string;
  schema: JsonObject;
  objects?: JsonValue[];
  failing?: [JsonValue, string[]][];
}

const kinds = (field: string, type: string, skip: string[] = []): [JsonValue, string[]][] =>
  (
    [
      ['foo', 'string'],
      [42, 'integer'],
      [true, 'boolean'],
      [1.2, 'number'],
      [[], 'array'],
      [{}, 'object'],
      [null, 'null'],
    ] as [JsonValue, string][]
  )
    .filter(([, k]) => k !== type && !skip.includes(k))
    .map(([v, k]) => [
      { [field]: v },
      [`${field}: Invalid value: "${k}": ${field} in body must be of type ${type}: "${k}"`],
    ]);

// Upstream pkg/apiserver/validation/validation_test.go TestValidateCustomResource (the non-CEL cases).
const cases: Case[] = [
  {
    name: '!nullable',
    schema: { type: 'object', properties: { field: { type: 'object', nullable: false } } },
    objects: [{}, { field: {} }],
    failing: kinds('field', 'object'),
  },
  {
    name: 'nullable',
    schema: { type: 'object', properties: { field: { type: 'object', nullable: true } } },
    objects: [{}, { field: {} }, { field: null }],
    failing: kinds('field', 'object', ['null']),
  },
  {
    name: 'nullable and no type',
    schema: { type: 'object', properties: { field: { nullable: true } } },
    objects: [
      {},
      { field: {} },
      { field: null },
      { field: 'foo' },
      { field: 42 },
      { field: true },
      { field: 1.2 },
      { field: [] },
    ],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: { type: 'object', properties: { field: { 'x-kubernetes-int-or-string': true } } },
    objects: [{}, { field: 42 }, { field: 'foo' }],
    failing: kinds('field', 'integer,string', ['string', 'integer']),
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provided anyOf',
    schema: {
      type: 'object',
      properties: {
        field: {
          nullable: true,
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
        },
      },
    },
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: [
      [
        { field: true },
        [
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
          'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
        ],
      ],
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provider allOf',
    schema: {
      type: 'object',
      properties: {
        field: {
          nullable: true,
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
        },
      },
    },
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: [
      [
        { field: 1.2 },
        [
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "number": field in body must be of type integer,string: "number"',
          'field: Invalid value: "number": field in body must be of type integer: "number"',
        ],
      ],
    ],
  },
  {
    name: 'invalid regex',
    schema: { type: 'object', properties: { field: { type: 'string', pattern: '+' } } },
    failing: [
      [
        { field: 'foo' },
        [
          'field: Invalid value: "foo": field in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
        ],
      ],
    ],
  },
  {
    name: 'required field',
    schema: {
      type: 'object',
      required: ['field'],
      properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } },
    },
    failing: [
      [{ test: 'a' }, ['field: Required value']],
      [{ field: {} }, ['field.nested: Required value']],
    ],
  },
  {
    name: 'enum',
    schema: {
      type: 'object',
      properties: {
        field: {
          type: 'object',
          required: ['nestedint', 'nestedstring'],
          properties: {
            nestedint: { type: 'integer', enum: [1, 2] },
            nestedstring: { type: 'string', enum: ['a', 'b'] },
          },
        },
      },
    },
    failing: [
      [{ field: {} }, ['field.nestedint: Required value', 'field.nestedstring: Required value']],
      [
        { field: { nestedint: 'x', nestedstring: true } },
        [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      ],
    ],
  },
  {
    name: 'maxProperties',
    schema: { type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } },
    failing: [
      [{ fieldX: { a: true, b: true, c: true } }, ['fieldX: Too many: 3: must have at most 2 items']],
    ],
  },
  {
    name: 'maxItems',
    schema: { type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } },
    failing: [[{ fieldX: ['a', 'b', 'c'] }, ['fieldX: Too many: 3: must have at most 2 items']]],
  },
  {
    name: 'maxLength',
    schema: { type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } },
    failing: [[{ fieldX: 'abc' }, ['fieldX: Too long: may not be longer than 2']]],
  },
];

describe('validateCustomResource (upstream pkg/apiserver/validation TestValidateCustomResource)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const v = newSchemaValidator(c.schema);
      for (const o of c.objects ?? [])
        assert.deepEqual(validateCustomResource(undefined, o, v), [], JSON.stringify(o));
      for (const [o, want] of c.failing ?? []) {
        const got = [...new Set(validateCustomResource(undefined, o, v).map(String))].sort();
        assert.deepEqual(got, [...want].sort(), JSON.stringify(o));
      }
    });
  }
});

describe('validateCustomResource messages', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          color: { type: 'string', enum: ['red', 'blue'] },
          size: { type: 'integer', maximum: 10, minimum: 1 },
          ratio: { type: 'number', exclusiveMaximum: true, maximum: 1.5, multipleOf: 0.25 },
          when: { type: 'string', format: 'date-time' },
          name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          kind: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: 'b$' }] },
          forbidden: { type: 'string', not: { pattern: 'x' } },
        },
      },
    },
  };
  const v = newSchemaValidator(schema);
  const check = (spec: JsonObject, want: string[]): void => {
    assert.deepEqual(validateCustomResource(undefined, { spec }, v).map(String), want);
  };

  it('reports types, enums and bounds as kube-apiserver does', () => {
    check({ replicas: 'string' }, [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    check({ color: 'pink' }, ['spec.color: Unsupported value: "pink": supported values: "red", "blue"']);
    check({ size: 11 }, [
      'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10',
    ]);
    check({ size: 0 }, [
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    ]);
    check({ ratio: 1.5 }, ['spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5']);
    check({ ratio: 0.3 }, [
      'spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25',
    ]);
    check({ when: 'yesterday' }, [
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ]);
    check({ when: '2024-01-02T03:04:05Z' }, []);
    check({ name: 'a' }, [
      'spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long',
    ]);
    check({ name: 'AB' }, ['spec.name: Invalid value: "AB": spec.name in body should match \'^[a-z]+$\'']);
    check({ tags: [] }, ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items']);
    check({ tags: [1] }, [
      'spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"',
    ]);
    check({ labels: { a: 1 } }, [
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
    ]);
    check({ kind: 'ab' }, [
      '<nil>: Invalid value: "": "spec.kind" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    check({ forbidden: 'x' }, [
      '<nil>: Invalid value: "": "spec.forbidden" must not validate the schema (not)',
    ]);
  });

  it('uses the given base path', () => {
    const errs = validateCustomResource(
      FieldPath.root('spec', 'default'),
      'x',
      newSchemaValidator({ type: 'integer' }),
    );
    assert.deepEqual(errs.map(String), [
      'spec.default: Invalid value: "string":  in body must be of type integer: "string"',
    ]);
  });
});
