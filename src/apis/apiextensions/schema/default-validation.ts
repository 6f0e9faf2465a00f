/**
 * CRD-time validation of the defaults in a structural schema, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/defaulting/validation.go ValidateDefaults: each default must be pruned
 * (no unknown fields), must coerce and validate as metadata where it applies to metadata, and
 * must validate against its own schema. CEL rules on defaults are the caller's (validateRules).
 */
import { fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError, FieldPath } from '../../../machinery/field/errors.js';
import { cloneJson, jsonEqual } from '../../../util/json.js';
import type { JsonValue } from '../../../util/json.js';
import { newStructuralValidator, validateCustomResource } from './custom-resource.js';
import { goBadValue } from './go-value.js';
import { childObject, indexObject, rootObject, withTypeMeta } from './defaulting.js';
import type { SurroundingObject } from './defaulting.js';
import { coerce, validateEmbedded } from './objectmeta.js';
import { prune } from './pruning.js';
import { asResourceRoot } from './structural.js';
import type { Structural } from './structural.js';

/** Checks CEL rules of a schema node against a value (the CEL seam; see crd-schema.ts). */
export type ValidateDefaultRules = (schema: Structural, value: JsonValue, path: FieldPath) => FieldError[];

export interface ValidateDefaultsOptions {
  readonly requirePrunedDefaults: boolean;
  readonly validateRules?: ValidateDefaultRules;
}

/** A typed internal failure (upstream returns it as the error result). */
export class DefaultValidationError extends Error {
  override readonly name = 'DefaultValidationError';
}

function typeMetaRoot(): SurroundingObject {
  return withTypeMeta(rootObject(), 'validation/v1', 'Validation');
}

/** Upstream ValidateDefaults: the errors of every default below `s`. Throws DefaultValidationError. */
export function validateDefaults(
  path: FieldPath,
  schema: Structural,
  isResourceRoot: boolean,
  options: ValidateDefaultsOptions,
): FieldError[] {
  const s = isResourceRoot ? asResourceRoot(schema) : schema;
  return validateNode(path, s, s, typeMetaRoot(), false, options);
}

function validateNode(
  path: FieldPath,
  s: Structural,
  rootIn: Structural,
  fIn: SurroundingObject,
  insideMetaIn: boolean,
  options: ValidateDefaultsOptions,
): FieldError[] {
  let root = rootIn;
  let f = fIn;
  let insideMeta = insideMetaIn;
  if (s.extensions.embeddedResource) {
    insideMeta = false;
    f = typeMetaRoot();
    root = s;
  }
  const errs: FieldError[] = [];
  const d = s.generic.default;
  if (d !== undefined) {
    const defaultPath = path.child('default');
    const validator = newStructuralValidator(s, { floatNumbers: true });
    const rules = (): FieldError[] => options.validateRules?.(s, d, defaultPath) ?? [];
    if (insideMeta) {
      const w = f.wrap(cloneJson(d));
      if (w.error !== undefined || w.obj === undefined) {
        throw new DefaultValidationError(
          `failed to validate default value inside metadata: ${w.error ?? ''}`,
        );
      }
      const c = coerce(undefined, w.obj, root, true, { dropInvalidFields: false });
      let metaErrs: FieldError[];
      if (c.error !== undefined) {
        errs.push(
          fieldErrors.invalid(
            defaultPath,
            goBadValue(d),
            `must result in valid metadata: ${c.error.toString()}`,
          ),
        );
      } else if ((metaErrs = validateEmbedded(undefined, w.obj, root, true)).length > 0) {
        errs.push(
          fieldErrors.invalid(
            defaultPath,
            goBadValue(d),
            `must result in valid metadata: ${aggregate(metaErrs)}`,
          ),
        );
      } else {
        const valueErrs = validateCustomResource(defaultPath, d, validator);
        errs.push(...(valueErrs.length > 0 ? valueErrs : rules()));
      }
    } else {
      if (options.requirePrunedDefaults) {
        const pruned = cloneJson(d);
        prune(pruned, s, s.extensions.embeddedResource);
        if (!jsonEqual(pruned, d))
          errs.push(fieldErrors.invalid(defaultPath, goBadValue(d), 'must not have unknown fields'));
      }
      const copy = cloneJson(d);
      const c = coerce(defaultPath, copy, s, s.extensions.embeddedResource, { dropInvalidFields: false });
      let metaErrs: FieldError[];
      if (c.error !== undefined) errs.push(c.error);
      else if (
        (metaErrs = validateEmbedded(defaultPath, copy, s, s.extensions.embeddedResource)).length > 0
      ) {
        errs.push(...metaErrs);
      } else {
        // Upstream coerces the default in place; the coerced copy stands in for it.
        const valueErrs = validateCustomResource(defaultPath, copy, validator);
        errs.push(...(valueErrs.length > 0 ? valueErrs : rules()));
      }
    }
  }
  if (s.items !== undefined) {
    errs.push(...validateNode(path.child('items'), s.items, root, indexObject(f), insideMeta, options));
  }
  for (const [k, sub] of s.properties ?? []) {
    const subInsideMeta =
      insideMeta ||
      (s.extensions.embeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    errs.push(
      ...validateNode(path.child('properties').key(k), sub, root, childObject(f, k), subInsideMeta, options),
    );
  }
  return errs;
}

/** utilerrors.Aggregate's Error(): one message, or `[a, b]`. */
function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(String))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
