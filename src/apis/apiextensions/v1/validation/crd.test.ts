import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { JsonObject } from '../../../../util/json.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd.js';

function crd(schemas: JsonObject[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conversion: { strategy: 'None' },
      versions: schemas.map((s, i) => ({
        name: `v${i + 1}`,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: s },
      })),
    },
    status: { storedVersions: ['v1'], acceptedNames: { plural: '', kind: '' } },
  };
}

const messages = (errs: readonly FieldError[]): string[] => errs.map(String);

describe('CRD schemas are checked (structural, defaults, OpenAPI rules)', () => {
  it('accepts a structural schema', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 1, minimum: 0 },
            port: { 'x-kubernetes-int-or-string': true },
          },
        },
      },
    };
    assert.deepEqual(messages(validateCustomResourceDefinition(crd([schema]))), []);
  });

  it('reports per-version structural errors with upstream paths', () => {
    const good = { type: 'object' };
    const bad = { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } };
    assert.deepEqual(messages(validateCustomResourceDefinition(crd([good, bad]))), [
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('reports identical schemas once, at the top-level validation', () => {
    const bad = { type: 'object', properties: { spec: { type: 'object', uniqueItems: true } } };
    assert.deepEqual(messages(validateCustomResourceDefinition(crd([bad, bad]))), [
      'spec.validation.openAPIV3Schema.properties[spec].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
    ]);
  });

  it('checks defaults', () => {
    const schema = { type: 'object', properties: { spec: { type: 'string', enum: ['a'], default: 'b' } } };
    assert.deepEqual(messages(validateCustomResourceDefinition(crd([schema]))), [
      'spec.validation.openAPIV3Schema.properties[spec].default: Unsupported value: "b": supported values: "a"',
    ]);
  });

  it('passes x-kubernetes-validations to the CEL hooks', () => {
    const schema = { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.x' }] };
    const errs = validateCustomResourceDefinition(crd([schema]), {
      validateRules: (s, path) => [
        new FieldError(
          'FieldValueInvalid',
          path.child('x-kubernetes-validations').index(0).child('rule'),
          s.extensions.validations?.[0]?.rule,
          'compilation failed',
        ),
      ],
    });
    assert.deepEqual(messages(errs), [
      'spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: "self.x": compilation failed',
    ]);
  });

  it('does not tighten validation on update when the old schema already failed', () => {
    // Only CRDs that kept spec.preserveUnknownFields (v1beta1 leftovers) may stay non-structural.
    const nonStructural = { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } };
    const legacy = (s: JsonObject): KubeObject => {
      const o = crd([s]);
      (o['spec'] as JsonObject)['preserveUnknownFields'] = true;
      return o;
    };
    assert.deepEqual(
      messages(validateCustomResourceDefinitionUpdate(legacy(nonStructural), legacy(nonStructural))),
      [],
    );
    assert.deepEqual(
      messages(validateCustomResourceDefinitionUpdate(legacy(nonStructural), legacy({ type: 'object' }))),
      [
        'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      ],
    );
    assert.deepEqual(
      messages(validateCustomResourceDefinitionUpdate(crd([nonStructural]), crd([nonStructural]))),
      [
        'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      ],
    );
  });
});
