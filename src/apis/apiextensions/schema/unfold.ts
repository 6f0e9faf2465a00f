/**
 * Structural.Unfold, as apiextensions-apiserver v0.27 pkg/apiserver/schema/unfold.go: every
 * x-kubernetes-int-or-string schema gets the explicit `anyOf: [{type: integer}, {type: string}]`
 * (or, when it has an anyOf of its own, an allOf entry holding it), which the OpenAPI published
 * for the CRD and the CEL type of the value rely on. Returns an unfolded copy.
 */
import type { NestedValueValidation, Structural, ValueValidation } from './structural.js';
import { isIntOrStringAllOfPattern, isIntOrStringAnyOfPattern } from './validate-structural.js';

function typeOnly(type: 'integer' | 'string'): NestedValueValidation {
  return {
    valueValidation: emptyValueValidation(),
    forbiddenGenerics: { description: '', type, title: '', nullable: false },
    forbiddenExtensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
  };
}

function emptyValueValidation(): ValueValidation {
  return { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false };
}

/** Upstream Unfold over a copy of the schema. */
export function unfold(s: Structural): Structural {
  const out: Structural = { ...s, generic: { ...s.generic }, extensions: { ...s.extensions } };
  if (s.items !== undefined) out.items = unfold(s.items);
  if (s.properties !== undefined) out.properties = new Map([...s.properties].map(([k, p]) => [k, unfold(p)]));
  const ap = s.generic.additionalProperties;
  if (ap?.structural !== undefined)
    out.generic.additionalProperties = { ...ap, structural: unfold(ap.structural) };
  if (!s.extensions.intOrString || isIntOrStringAnyOfPattern(s) || isIntOrStringAllOfPattern(s)) return out;
  const vv: ValueValidation = { ...(s.valueValidation ?? emptyValueValidation()) };
  const pair = [typeOnly('integer'), typeOnly('string')];
  if (vv.anyOf === undefined) vv.anyOf = pair;
  else {
    const first: NestedValueValidation = {
      valueValidation: { ...emptyValueValidation(), anyOf: pair },
      forbiddenGenerics: { description: '', type: '', title: '', nullable: false },
      forbiddenExtensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
    };
    vv.allOf = [first, ...(vv.allOf ?? [])];
  }
  out.valueValidation = vv;
  return out;
}
