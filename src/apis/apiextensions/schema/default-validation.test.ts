import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FieldPath } from '../../../machinery/field/errors.js';
import type { JsonObject } from '../../../util/json.js';
import { createSchemaOptions, validateCRDOpenAPISchema } from './crd-schema.js';
import { loadRe2 } from '../../../util/re2.js';

// RE2 is loaded on first use; these tests call the schema checks directly.
await loadRe2();

// Upstream pkg/apis/apiextensions/validation/validation_test.go TestValidateCustomResourceDefinition:
// "invalid defaults with enabled feature gate, structural schema" and "embedded metadata
// defaults" (schemas converted from the Go literals into testdata/*.json); matched by type and path.
const typeOf: Record<string, string> = {
  invalid: 'FieldValueInvalid',
  invalidtypecode: 'FieldValueTypeInvalid',
  unsupported: 'FieldValueNotSupported',
  required: 'FieldValueRequired',
  forbidden: 'FieldValueForbidden',
};

function load(name: string): JsonObject {
  return JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8')) as JsonObject;
}

function check(file: string, expected: [string, string][]): void {
  const root = FieldPath.root('spec', 'validation', 'openAPIV3Schema');
  const got = validateCRDOpenAPISchema(load(file), root, createSchemaOptions)
    .map((e) => `${e.type} ${e.field}`)
    .sort();
  const want = expected.map(([k, p]) => `${typeOf[k] ?? k} ${p}`).sort();
  assert.deepEqual(got, want);
}

describe('default validation (upstream TestValidateCustomResourceDefinition cases)', () => {
  it('invalid defaults with enabled feature gate, structural schema', () => {
    check('invalid-defaults.json', [
      ['invalid', 'spec.validation.openAPIV3Schema.properties[a].default'],
      ['invalidtypecode', 'spec.validation.openAPIV3Schema.properties[c].default.foo'],
      ['invalid', 'spec.validation.openAPIV3Schema.properties[d].default.bad'],
      ['invalid', 'spec.validation.openAPIV3Schema.properties[e].properties[preserveUnknownFields].default'],
      ['invalid', 'spec.validation.openAPIV3Schema.properties[e].properties[nestedProperties].default'],
    ]);
  });

  it('embedded metadata defaults', () => {
    check('embedded-metadata-defaults.json', [
      ['invalid', 'spec.validation.openAPIV3Schema.properties[unknown-field-object-defaults].default'],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[unknown-field-spanning-object-defaults].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[x-preserve-unknown-fields-unknown-field-outside].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[kind].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[apiVersion].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[metadata].properties[name].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-in-object-defaults].properties[metadata].properties[annotations].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-metadata].default.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-apiVersion].default.apiVersion',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-kind].default.kind',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-name].default.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-labels].default.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-object-defaults-annotations].default.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-metadata].default.embedded.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-apiVersion].default.embedded.apiVersion',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-kind].default.embedded.kind',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-name].default.embedded.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-labels].default.embedded.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[wrongly-typed-spanning-object-defaults-annotations].default.embedded.metadata',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[metadata].properties[name].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[metadata].properties[labels].default',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-in-object-defaults].properties[kind].default',
      ],
      ['invalid', 'spec.validation.openAPIV3Schema.properties[invalid-object-defaults-kind].default.kind'],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-object-defaults-name].default.metadata.name',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-object-defaults-labels].default.metadata.labels',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-kind].default.embedded.kind',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-name].default.embedded.metadata.name',
      ],
      [
        'invalid',
        'spec.validation.openAPIV3Schema.properties[invalid-spanning-object-defaults-labels].default.embedded.metadata.labels',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[apiVersion].default',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[kind].default',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[name].default',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[in-object-defaults-with-invalid-constraints].properties[metadata].properties[labels].default.foo',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[metadata-defaults-with-invalid-constraints-name].properties[metadata].default.name',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[metadata-defaults-with-invalid-constraints-labels].properties[metadata].default.labels.foo',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-name].default.metadata.name',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-labels].default.metadata.labels.foo',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-apiVersion].default.apiVersion',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-invalid-constraints-kind].default.kind',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-kind].default.embedded.kind',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-labels].default.embedded.metadata.labels.foo',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-apiVersion].default.embedded.apiVersion',
      ],
      [
        'unsupported',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-invalid-constraints-name].default.embedded.metadata.name',
      ],
      [
        'required',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-missing-typemeta].default.apiVersion',
      ],
      [
        'required',
        'spec.validation.openAPIV3Schema.properties[object-defaults-with-missing-typemeta].default.kind',
      ],
      [
        'required',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-missing-typemeta].default.embedded.apiVersion',
      ],
      [
        'required',
        'spec.validation.openAPIV3Schema.properties[spanning-defaults-with-missing-typemeta].default.embedded.kind',
      ],
    ]);
  });
});
