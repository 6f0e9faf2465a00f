// The apis seams (CRDValidationHooks of apis/apiextensions/v1/validation/crd.ts) filled with this
// package, as the CRD registry strategy wires them: rules compiled at CRD time (AM-09: errors,
// not 500s), rules checked against defaults (defaulting/validation.go).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateCustomResourceDefinition } from '../../apis/apiextensions/v1/validation/crd.js';
import type { KubeObject } from '../../machinery/object.js';
import { compileSchemaRules, validateDefaultRules } from './index.js';

function crd(schema: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
    status: { storedVersions: ['v1'] },
  } as KubeObject;
}

const hooks = { validateRules: compileSchemaRules, validateDefaultRules };
// One version's schema is validated where the internal form keeps it (spec.validation).
const at = 'spec.validation.openAPIV3Schema';

describe('CRD validation with the CEL hooks', () => {
  it('accepts valid rules', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            min: { type: 'integer' },
            max: { type: 'integer' },
            name: { type: 'string', maxLength: 20 },
          },
          'x-kubernetes-validations': [
            { rule: 'self.min <= self.max', messageExpression: "'min of ' + self.name" },
          ],
        },
      },
    };
    assert.deepEqual(validateCustomResourceDefinition(crd(schema), hooks).map(String), []);
  });

  it('string(int) in a messageExpression is unbounded for cel-go v0.12.7 (as Kubernetes 1.27)', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { min: { type: 'integer' } },
          'x-kubernetes-validations': [
            { rule: 'self.min > 0', messageExpression: "'min ' + string(self.min)" },
          ],
        },
      },
    };
    const errs = validateCustomResourceDefinition(crd(schema), hooks).map(String);
    assert.equal(
      errs[0],
      `${at}.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
  });

  it('reports rules that do not compile', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: {}, 'x-kubernetes-validations': [{ rule: 'self.nope' }] },
      },
    };
    const errs = validateCustomResourceDefinition(crd(schema), hooks).map(String);
    assert.equal(errs.length, 1);
    assert.ok(
      errs[0]?.startsWith(
        `${at}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nope", Message:"", MessageExpression:""}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'`,
      ),
      errs[0],
    );
  });

  it('checks defaults against their rules', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: {
              type: 'integer',
              default: 3,
              'x-kubernetes-validations': [{ rule: 'self < 3', message: 'too big' }],
            },
          },
        },
      },
    };
    assert.deepEqual(validateCustomResourceDefinition(crd(schema), hooks).map(String), [
      `${at}.properties[spec].properties[size].default: Invalid value: "integer": too big`,
    ]);
  });
});
