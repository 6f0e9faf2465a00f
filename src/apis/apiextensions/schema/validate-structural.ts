/**
 * Whether a Structural is really structural, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/validation.go (ValidateStructural: the invariants) and complete.go (every
 * field a value validation mentions is specified in the structure).
 */
import { FieldPath, fieldErrors } from '../../../machinery/field/errors.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { re2 } from '../../../util/re2.js';
import type {
  Extensions,
  Generic,
  NestedValueValidation,
  Structural,
  ValueValidation,
} from './structural.js';

type Level = 'root' | 'item' | 'field';

/** A child of a path that may be the nil root (upstream's nil *field.Path). */
function child(p: FieldPath | undefined, name: string): FieldPath {
  return p === undefined ? FieldPath.root(name) : p.child(name);
}

function keyed(p: FieldPath | undefined, name: string, key: string): FieldPath {
  return child(p, name).key(key);
}

function indexed(p: FieldPath | undefined, name: string, i: number): FieldPath {
  return child(p, name).index(i);
}

function pathText(p: FieldPath | undefined): string {
  return p === undefined ? '<nil>' : p.toString();
}

/** Upstream ValidateStructural: the invariants and completeness errors, sorted by their text. */
export function validateStructural(path: FieldPath | undefined, s: Structural): FieldError[] {
  const errs = [...validateInvariants(s, 'root', path), ...validateCompleteness(s, path)];
  return errs.sort((a, b) => {
    const x = a.toString();
    const y = b.toString();
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

// ---- zero-value checks (Go's reflect.DeepEqual against a zero struct) ----

function isZeroGeneric(g: Generic, allowType = false): boolean {
  return (
    (allowType || g.type === '') &&
    g.description === '' &&
    g.title === '' &&
    g.default === undefined &&
    g.additionalProperties === undefined &&
    !g.nullable
  );
}

function isZeroExtensions(x: Extensions): boolean {
  return (
    !x.preserveUnknownFields &&
    !x.embeddedResource &&
    !x.intOrString &&
    x.listMapKeys === undefined &&
    x.listType === undefined &&
    x.mapType === undefined &&
    x.validations === undefined
  );
}

export function isZeroValueValidation(v: ValueValidation): boolean {
  return (
    v.format === '' &&
    v.maximum === undefined &&
    !v.exclusiveMaximum &&
    v.minimum === undefined &&
    !v.exclusiveMinimum &&
    v.maxLength === undefined &&
    v.minLength === undefined &&
    v.pattern === '' &&
    v.maxItems === undefined &&
    v.minItems === undefined &&
    !v.uniqueItems &&
    v.multipleOf === undefined &&
    v.enum === undefined &&
    v.maxProperties === undefined &&
    v.minProperties === undefined &&
    v.required === undefined &&
    v.allOf === undefined &&
    v.oneOf === undefined &&
    v.anyOf === undefined &&
    v.not === undefined
  );
}

/** A nested value validation that is exactly `{type: <t>}`. */
function isOnlyType(v: NestedValueValidation | undefined, type: string): boolean {
  return (
    v !== undefined &&
    v.forbiddenGenerics.type === type &&
    isZeroGeneric(v.forbiddenGenerics, true) &&
    isZeroExtensions(v.forbiddenExtensions) &&
    isZeroValueValidation(v.valueValidation) &&
    v.items === undefined &&
    v.properties === undefined
  );
}

function isIntOrStringPair(list: readonly NestedValueValidation[] | undefined): boolean {
  return list?.length === 2 && isOnlyType(list[0], 'integer') && isOnlyType(list[1], 'string');
}

/** `anyOf: [{type: integer}, {type: string}]`. */
export function isIntOrStringAnyOfPattern(s: Structural | undefined): boolean {
  return s?.valueValidation !== undefined && isIntOrStringPair(s.valueValidation.anyOf);
}

/** `allOf: [{anyOf: [{type: integer}, {type: string}]}, ...]`. */
export function isIntOrStringAllOfPattern(s: Structural | undefined): boolean {
  const first = s?.valueValidation?.allOf?.[0];
  return first !== undefined && isIntOrStringPair(first.valueValidation.anyOf);
}

// ---- invariants ----

function validateInvariants(
  s: Structural | undefined,
  lvl: Level,
  path: FieldPath | undefined,
): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  const type = s.generic.type;
  const x = s.extensions;
  if (type === 'array' && s.items === undefined) {
    errs.push(fieldErrors.required(child(path, 'items'), 'must be specified'));
  }
  errs.push(...validateInvariants(s.items, 'item', child(path, 'items')));
  for (const [k, v] of s.properties ?? []) {
    errs.push(...validateInvariants(v, 'field', keyed(path, 'properties', k)));
  }
  errs.push(...validateGeneric(s.generic, lvl, path));
  errs.push(...validateExtensions(x, path));
  errs.push(
    ...validateValueValidation(
      s.valueValidation,
      isIntOrStringAnyOfPattern(s),
      isIntOrStringAllOfPattern(s),
      lvl,
      path,
    ),
  );

  const checkMetadata = lvl === 'root' || x.embeddedResource;
  const embedded = 'must be object if x-kubernetes-embedded-resource is true';
  if (x.embeddedResource && type !== 'object') {
    if (type === '') errs.push(fieldErrors.required(child(path, 'type'), embedded));
    else errs.push(fieldErrors.invalid(child(path, 'type'), type, embedded));
  } else if (type === '' && !x.intOrString && !x.preserveUnknownFields) {
    const detail = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    }[lvl];
    errs.push(fieldErrors.required(child(path, 'type'), detail));
  }
  if (x.embeddedResource && s.generic.additionalProperties !== undefined) {
    errs.push(
      fieldErrors.forbidden(
        child(path, 'additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  }
  if (lvl === 'root' && type !== '' && type !== 'object') {
    errs.push(fieldErrors.invalid(child(path, 'type'), type, 'must be object at the root'));
  }
  for (const meta of ['kind', 'apiVersion']) {
    const prop = s.properties?.get(meta);
    if (prop !== undefined && checkMetadata && prop.generic.type !== 'string') {
      errs.push(
        fieldErrors.invalid(
          keyed(path, 'properties', meta).child('type'),
          prop.generic.type,
          'must be string',
        ),
      );
    }
  }
  const metadata = s.properties?.get('metadata');
  if (metadata !== undefined) {
    errs.push(
      ...validateMetadataInvariants(metadata, checkMetadata, lvl, keyed(path, 'properties', 'metadata')),
    );
  }
  if (x.embeddedResource && !x.preserveUnknownFields && (s.properties?.size ?? 0) === 0) {
    errs.push(
      fieldErrors.required(
        child(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/**
 * Upstream validateStructuralMetadataInvariants: metadata must be an object and, at the root, may
 * only specify name and generateName (its type and default are checked elsewhere).
 */
function validateMetadataInvariants(
  s: Structural,
  checkMetadata: boolean,
  lvl: Level,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.generic.type !== 'object') {
    errs.push(fieldErrors.invalid(path.child('type'), s.generic.type, 'must be object'));
  }
  if (lvl === 'root') {
    const props = s.properties;
    const hasName = props?.has('name') ?? false;
    const hasGenerateName = props?.has('generateName') ?? false;
    const size = props?.size ?? 0;
    const onlyNames =
      (hasName && hasGenerateName && size === 2) || ((hasName || hasGenerateName) && size === 1);
    const g = { ...s.generic, type: '' };
    delete g.default;
    const isEmpty =
      s.items === undefined &&
      (props === undefined || onlyNames) &&
      isZeroGeneric(g) &&
      isZeroExtensions(s.extensions) &&
      (s.valueValidation === undefined || isZeroValueValidation(s.valueValidation));
    if (!isEmpty) {
      errs.push(
        fieldErrors.forbidden(
          path,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    }
  }
  return errs;
}

function validateGeneric(g: Generic, lvl: Level, path: FieldPath | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (g.additionalProperties !== undefined) {
    if (lvl === 'root') {
      errs.push(fieldErrors.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    }
    if (g.additionalProperties.structural !== undefined) {
      errs.push(
        ...validateInvariants(
          g.additionalProperties.structural,
          'field',
          child(path, 'additionalProperties'),
        ),
      );
    }
  }
  return errs;
}

function validateExtensions(x: Extensions, path: FieldPath | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (x.intOrString && x.preserveUnknownFields) {
    errs.push(
      fieldErrors.invalid(
        child(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (x.intOrString && x.embeddedResource) {
    errs.push(
      fieldErrors.invalid(
        child(path, 'x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  return errs;
}

/** Go's regexp.Compile error text for a pattern, or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  const RE2 = re2(); // outside the try: not being loaded is no pattern error
  try {
    RE2.compile(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function validateValueValidation(
  v: ValueValidation | undefined,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  path: FieldPath | undefined,
): FieldError[] {
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    (v.anyOf ?? []).forEach((n, i) => {
      errs.push(...validateNested(n, false, false, lvl, indexed(path, 'anyOf', i)));
    });
  }
  (v.allOf ?? []).forEach((n, i) => {
    errs.push(...validateNested(n, skipFirstAllOfAnyOf && i === 0, false, lvl, indexed(path, 'allOf', i)));
  });
  (v.oneOf ?? []).forEach((n, i) => {
    errs.push(...validateNested(n, false, false, lvl, indexed(path, 'oneOf', i)));
  });
  errs.push(...validateNested(v.not, false, false, lvl, child(path, 'not')));
  if (v.pattern !== '') {
    const err = goRegexpError(v.pattern);
    if (err !== undefined) {
      errs.push(
        fieldErrors.invalid(
          child(path, 'pattern'),
          v.pattern,
          `must be a valid regular expression, but isn't: ${err}`,
        ),
      );
    }
  }
  return errs;
}

function validateNested(
  v: NestedValueValidation | undefined,
  skipAnyOf: boolean,
  skipAllOfAnyOf: boolean,
  lvl: Level,
  path: FieldPath,
): FieldError[] {
  if (v === undefined) return [];
  const errs = validateValueValidation(v.valueValidation, skipAnyOf, skipAllOfAnyOf, lvl, path);
  errs.push(...validateNested(v.items, false, false, lvl, path.child('items')));
  for (const [k, p] of v.properties ?? []) {
    errs.push(...validateNested(p, false, false, 'field', path.child('properties').key(k)));
  }
  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  const forbid = (name: string, detail: string): void => {
    errs.push(fieldErrors.forbidden(path.child(name), detail));
  };
  const mustEmpty = 'must be empty to be structural';
  const mustUndefined = 'must be undefined to be structural';
  const mustFalse = 'must be false to be structural';
  if (g.type !== '') forbid('type', mustEmpty);
  if (g.additionalProperties !== undefined) forbid('additionalProperties', mustUndefined);
  if (g.default !== undefined) forbid('default', mustUndefined);
  if (g.title !== '') forbid('title', mustEmpty);
  if (g.description !== '') forbid('description', mustEmpty);
  if (g.nullable) forbid('nullable', mustFalse);
  if (x.preserveUnknownFields) forbid('x-kubernetes-preserve-unknown-fields', mustFalse);
  if (x.embeddedResource) forbid('x-kubernetes-embedded-resource', mustFalse);
  if (x.intOrString) forbid('x-kubernetes-int-or-string', mustFalse);
  if ((x.listMapKeys?.length ?? 0) > 0) forbid('x-kubernetes-list-map-keys', mustEmpty);
  if (x.listType !== undefined) forbid('x-kubernetes-list-type', mustUndefined);
  if (x.mapType !== undefined) forbid('x-kubernetes-map-type', mustUndefined);
  if ((x.validations?.length ?? 0) > 0) forbid('x-kubernetes-validations', mustEmpty);
  if (v.properties?.has('metadata') === true) {
    errs.push(
      fieldErrors.forbidden(
        path.child('properties').key('metadata'),
        'must not be specified in a nested context',
      ),
    );
  }
  return errs;
}

// ---- completeness (complete.go) ----

function validateCompleteness(s: Structural, path: FieldPath | undefined): FieldError[] {
  return completenessOf(s.valueValidation, s, path, path);
}

function requiredBecause(sPath: FieldPath | undefined, vPath: FieldPath | undefined): FieldError {
  return fieldErrors.required(sPath ?? '<nil>', `because it is defined in ${pathText(vPath)}`);
}

function completenessOf(
  v: ValueValidation | undefined,
  s: Structural | undefined,
  sPath: FieldPath | undefined,
  vPath: FieldPath | undefined,
): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [requiredBecause(sPath, vPath)];
  const errs = nestedCompleteness(v.not, s, sPath, child(vPath, 'not'));
  for (const [key, list] of [
    ['allOf', v.allOf],
    ['anyOf', v.anyOf],
    ['oneOf', v.oneOf],
  ] as const) {
    (list ?? []).forEach((n, i) => {
      errs.push(...nestedCompleteness(n, s, sPath, indexed(vPath, key, i)));
    });
  }
  return errs;
}

function nestedCompleteness(
  v: NestedValueValidation | undefined,
  s: Structural | undefined,
  sPath: FieldPath | undefined,
  vPath: FieldPath,
): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [requiredBecause(sPath, vPath)];
  const errs = completenessOf(v.valueValidation, s, sPath, vPath);
  errs.push(...nestedCompleteness(v.items, s.items, child(sPath, 'items'), vPath.child('items')));
  for (const [k, vf] of v.properties ?? []) {
    const sf = s.properties?.get(k);
    const sp = keyed(sPath, 'properties', k);
    const vp = vPath.child('properties').key(k);
    if (sf === undefined) errs.push(requiredBecause(sp, vp));
    else errs.push(...nestedCompleteness(vf, sf, sp, vp));
  }
  return errs;
}
