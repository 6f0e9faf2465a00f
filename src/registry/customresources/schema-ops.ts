/**
 * A CRD's structural schemas put to work for its custom resources (what crdHandler wires per
 * version in getOrCreateServingInfoFor, apiextensions-apiserver v0.27): the schema validator,
 * list-type and embedded-metadata validation and the CEL rules for the strategies; pruning,
 * null pruning, metadata coercion and defaulting for request bodies and objects read back.
 */
import {
  validateCustomResource,
  newSchemaValidator,
} from '../../apis/apiextensions/schema/custom-resource.js';
import {
  applyDefaults,
  pruneNonNullableNullsWithoutDefaults,
} from '../../apis/apiextensions/schema/defaulting.js';
import { validateListSetsAndMaps } from '../../apis/apiextensions/schema/listtype.js';
import { coerce, validateEmbedded } from '../../apis/apiextensions/schema/objectmeta.js';
import { prune } from '../../apis/apiextensions/schema/pruning.js';
import { newStructural } from '../../apis/apiextensions/schema/structural.js';
import type { Structural } from '../../apis/apiextensions/schema/structural.js';
import { apiErrors } from '../../machinery/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import { re2Pending } from '../../util/re2.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import type { CrdView } from './crd-view.js';
import type { CustomResourceSchemaOps } from './resource.js';

/** Checks a version's x-kubernetes-validations (CEL); built once per version. */
export interface RuleValidator {
  /** What `validate` needs loaded first (the CEL engine); undefined once it is. */
  load(): Promise<void> | undefined;
  validate(obj: KubeObject, old: KubeObject | undefined): FieldError[];
}

export interface SchemaOpsOptions {
  /** Builds the CEL rule validator of a version's structural schema, when it has rules. */
  readonly rules?: (schema: Structural) => RuleValidator | undefined;
}

interface VersionSchema {
  readonly structural: Structural | undefined;
  readonly validate: (obj: JsonValue) => FieldError[];
  readonly hasDefaults: boolean;
  readonly rules: RuleValidator | undefined;
}

function hasDefault(v: JsonValue | undefined): boolean {
  if (Array.isArray(v)) return v.some(hasDefault);
  if (!isJsonObject(v)) return false;
  if (v['default'] !== undefined) return true;
  return Object.entries(v).some(([k, x]) => k !== 'enum' && k !== 'example' && hasDefault(x));
}

function structuralOf(schema: JsonObject | undefined): Structural | undefined {
  if (schema === undefined) return undefined;
  try {
    return newStructural(schema);
  } catch {
    return undefined; // validation refuses non-structural schemas; nothing to serve with
  }
}

/** The schema machinery of one CRD, per version; the decoding half is returned beside it. */
export function customResourceSchemaOps(
  view: CrdView,
  options: SchemaOpsOptions = {},
): {
  ops: CustomResourceSchemaOps;
  decoding: {
    prune(version: string, obj: JsonObject): string[];
    defaults(version: string, obj: JsonObject): void;
  };
} {
  const versions = new Map<string, VersionSchema>();
  for (const v of view.versions) {
    const structural = structuralOf(v.schema);
    const validator = v.schema !== undefined ? newSchemaValidator(v.schema) : undefined;
    versions.set(v.name, {
      structural,
      validate: (obj) => validateCustomResource(undefined, obj, validator),
      hasDefaults: hasDefault(v.schema),
      rules: structural !== undefined ? options.rules?.(structural) : undefined,
    });
  }
  const at = (version: string): VersionSchema | undefined => versions.get(version);
  const schemaErrors = (version: string, obj: KubeObject, old: KubeObject | undefined): FieldError[] => {
    const v = at(version);
    if (v === undefined) return [];
    const json = obj as unknown as JsonObject;
    const errs = [...v.validate(json), ...validateEmbedded(undefined, json, v.structural, false)];
    // List sets/maps: on update only when the old object passed (ratcheting, as upstream).
    const listErrs = validateListSetsAndMaps(undefined, v.structural, json);
    if (listErrs.length > 0) {
      const oldOk = old === undefined || validateListSetsAndMaps(undefined, v.structural, old).length === 0;
      if (oldOk) errs.push(...listErrs);
    }
    return errs;
  };
  const defaults = (version: string, obj: JsonObject): void => {
    const v = at(version);
    if (v?.structural === undefined || !v.hasDefaults) return;
    applyDefaults(obj, v.structural);
  };
  return {
    ops: {
      validation: {
        // RE2 for `pattern`s and formats; CEL for the versions with rules.
        // Runs before every custom resource write: once all is loaded, no array and no promise.
        load: () => {
          let pending: Promise<void>[] | undefined;
          const wait = (p: Promise<void> | undefined): void => {
            if (p !== undefined) (pending ??= []).push(p);
          };
          wait(re2Pending());
          for (const v of versions.values()) wait(v.rules?.load());
          return pending === undefined ? undefined : Promise.all(pending).then(() => undefined);
        },
        schema: schemaErrors,
        hasRules: (version) => at(version)?.rules !== undefined,
        rules: (version, obj, old) => at(version)?.rules?.validate(obj, old) ?? [],
      },
      hasDefaults: (version) => at(version)?.hasDefaults === true,
      defaults: (version, obj) => defaults(version, obj),
      prune: (version, obj) => {
        const s = at(version)?.structural;
        if (!view.preserveUnknownFields && s !== undefined) prune(obj, s, true);
      },
    },
    decoding: {
      prune(version, obj) {
        const v = at(version);
        const s = v?.structural;
        const unknown =
          view.preserveUnknownFields || s === undefined
            ? []
            : prune(obj, s, true, { trackUnknownFieldPaths: true });
        if (s !== undefined) pruneNonNullableNullsWithoutDefaults(obj, s);
        const coerced = coerce(undefined, obj, s, true, { returnUnknownFieldPaths: true });
        if (coerced.error !== undefined) throw apiErrors.badRequest(coerced.error.toString());
        return [...unknown, ...coerced.unknownFieldPaths];
      },
      defaults,
    },
  };
}
