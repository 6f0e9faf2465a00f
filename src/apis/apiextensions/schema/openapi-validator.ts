/**
 * kube-openapi's schema validator (pkg/validation/validate at 8b0f38b5fd1f: schema.go, type.go,
 * validator.go, object_validator.go, slice_validator.go, schema_props.go, formats.go, values.go,
 * result.go) with the error texts of pkg/validation/errors, as kube-apiserver 1.27 runs it over a
 * custom resource. Values are seen as Go sees decoded JSON: integers as int64, other numbers as
 * float64 (or every number as float64 for values that came from the schema itself, like defaults).
 *
 * Errors carry what apiextensions-apiserver converts into field errors (custom-resource.ts).
 */
import { goFloat, goQuote } from '../../../machinery/field/errors.js';
import { jsonEqual } from '../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../util/json.js';
import type { RE2JS } from 're2js';
import { re2 } from '../../../util/re2.js';
import { validatesFormat, isKnownFormat } from './formats.js';
import type { OpenAPISchema } from './openapi-schema.js';

/** The error codes of kube-openapi pkg/validation/errors the conversion tells apart. */
export type ValidationCode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive';

/** An errors.Validation: a coded error about the value at `name`. */
export interface ValidationError {
  readonly kind: 'validation';
  readonly code: ValidationCode;
  readonly name: string;
  /** The bad value; undefined where upstream leaves it nil. */
  readonly value?: JsonValue | undefined;
  /** The limit (maxLength, maxItems, maxProperties, ...), where upstream records it. */
  readonly valid?: number;
  /** The enum values, for Enum. */
  readonly values?: readonly JsonValue[];
  readonly message: string;
}

/** A composite (anyOf/oneOf/allOf/not) error: only a message. */
export interface CompositeError {
  readonly kind: 'composite';
  readonly message: string;
}

export type OpenAPIError = ValidationError | CompositeError;

const IN = 'body';

/** Upstream Result: errors (deduplicated by text) and how well the value matched. */
class Result {
  readonly errors: OpenAPIError[] = [];
  matchCount = 0;

  static of(err: OpenAPIError): Result {
    const r = new Result();
    r.errors.push(err);
    return r;
  }

  addErrors(...errs: OpenAPIError[]): void {
    for (const e of errs) {
      if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    }
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (o === undefined) continue;
      this.addErrors(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  isValid(): boolean {
    return this.errors.length === 0;
  }
}

/** How a JSON value looks to Go's reflection after decoding. */
type GoKind = 'nil' | 'bool' | 'string' | 'int64' | 'float64' | 'slice' | 'map';

export interface ValidatorOptions {
  /** Every number is a float64 (values decoded from the schema, e.g. defaults). */
  readonly floatNumbers?: boolean;
}

const INT64_LIMIT = 2 ** 63;

function goKind(v: JsonValue, floats: boolean): GoKind {
  if (v === null) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') {
    return !floats && Number.isInteger(v) && Math.abs(v) < INT64_LIMIT ? 'int64' : 'float64';
  }
  return Array.isArray(v) ? 'slice' : 'map';
}

/** typeValidator.schemaInfoForType: the schema type and format a Go value has. */
const goSchemaInfo: Readonly<Record<GoKind, readonly [string, string]>> = {
  bool: ['boolean', ''],
  string: ['string', ''],
  int64: ['integer', 'int64'],
  float64: ['number', 'float64'],
  slice: ['array', ''],
  map: ['object', ''],
  nil: ['', ''],
};

/** swag.IsFloat64AJSONInteger. */
function isJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f !== Math.trunc(f)) return false;
  return Math.abs(f) <= 2 ** 53;
}

/** Go's `%v` of a JSON value inside an error message. */
function goValue(v: JsonValue | undefined, floats: boolean): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goKind(v, floats) === 'int64' ? String(v) : goFloat(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goValue(x, floats)).join(' ')}]`;
  const keys = Object.keys(v).sort();
  return `map[${keys.map((k) => `${k}:${goValue(v[k], floats)}`).join(' ')}]`;
}

function goQuoted(s: string): string {
  return goQuote(s);
}

function invalidType(name: string, typeName: string, value: JsonValue): ValidationError {
  const message =
    typeof value === 'string'
      ? `${name} in ${IN} must be of type ${typeName}: ${goQuoted(value)}`
      : `${name} in ${IN} must be of type ${typeName}`;
  return { kind: 'validation', code: 'InvalidType', name, value, message };
}

const regexCache = new Map<string, RE2JS | Error>();

function compileRegexp(pattern: string): RE2JS | Error {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    const RE2 = re2(); // outside the try: not being loaded is no pattern error
    try {
      re = RE2.compile(pattern);
    } catch (e) {
      re = e instanceof Error ? e : new Error(String(e));
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** Go's reflect.DeepEqual of a decoded value and a schema value (whose numbers are float64). */
function deepEqualGo(data: JsonValue, enumValue: JsonValue, floats: boolean): boolean {
  if (typeof data === 'number') {
    return typeof enumValue === 'number' && goKind(data, floats) === 'float64' && data === enumValue;
  }
  if (data === null || typeof data !== 'object') return data === enumValue;
  if (enumValue === null || typeof enumValue !== 'object') return false;
  if (Array.isArray(data)) {
    return (
      Array.isArray(enumValue) &&
      data.length === enumValue.length &&
      data.every((x, i) => deepEqualGo(x, enumValue[i]!, floats))
    );
  }
  if (Array.isArray(enumValue)) return false;
  const keys = Object.keys(data);
  return (
    keys.length === Object.keys(enumValue).length &&
    keys.every((k) => Object.hasOwn(enumValue, k) && deepEqualGo(data[k]!, enumValue[k]!, floats))
  );
}

/**
 * basicCommonValidator's enum match: the value converted to the enum value's Go type, then
 * compared (an int64 converts to a float64, and, as Go allows, to a one-rune string).
 */
function enumMatches(data: JsonValue, enumValue: JsonValue, floats: boolean): boolean {
  if (data === null || enumValue === null) return false;
  const kind = goKind(data, floats);
  if (typeof enumValue === 'number') {
    return (kind === 'int64' || kind === 'float64') && data === enumValue;
  }
  if (typeof enumValue === 'string') {
    if (kind === 'int64' && typeof data === 'number') {
      const cp = data >= 0 && data <= 0x10ffff && !(data >= 0xd800 && data <= 0xdfff) ? data : 0xfffd;
      return String.fromCodePoint(cp) === enumValue;
    }
    return data === enumValue;
  }
  return deepEqualGo(data, enumValue, floats);
}

/** Upstream SchemaValidator: one schema at one path. */
export class SchemaValidator {
  readonly #schema: OpenAPISchema;
  readonly #floats: boolean;

  constructor(schema: OpenAPISchema, options: ValidatorOptions = {}) {
    this.#schema = schema;
    this.#floats = options.floatNumbers ?? false;
  }

  /** Validates the value; `path` is the kube-openapi path ("" at the root). */
  validate(data: JsonValue, path = ''): OpenAPIError[] {
    return this.#validate(this.#schema, data, path).errors;
  }

  #validate(s: OpenAPISchema, data: JsonValue, path: string): Result {
    const result = new Result();
    if (data === null) {
      result.merge(this.#type(s, data, path));
      result.merge(this.#common(s, data, path));
      return result;
    }
    const kind = goKind(data, this.#floats);
    const steps: (() => Result | undefined)[] = [];
    if (s.type.length > 0 || s.format !== '') steps.push(() => this.#type(s, data, path));
    steps.push(() => this.#schemaProps(s, data, path));
    if (kind === 'string') steps.push(() => this.#string(s, data as string, path));
    if (kind === 'string' && isKnownFormat(s.format)) steps.push(() => this.#format(s, data as string, path));
    if (kind === 'int64' || kind === 'float64') steps.push(() => this.#number(s, data as number, path));
    if (kind === 'slice') steps.push(() => this.#slice(s, data as JsonValue[], path));
    steps.push(() => this.#common(s, data, path));
    if (kind === 'map') steps.push(() => this.#object(s, data as JsonObject, path));
    for (const step of steps) {
      result.merge(step());
      result.matchCount++;
    }
    result.matchCount++;
    return result;
  }

  /** typeValidator. */
  #type(s: OpenAPISchema, data: JsonValue, path: string): Result {
    const ok = new Result();
    ok.matchCount = 1;
    const types = s.type;
    if (data === null) {
      if (types.length > 0 && !types.includes('null') && !s.nullable) {
        return Result.of(invalidType(path, types.join(','), 'null'));
      }
      return ok;
    }
    const kind = goKind(data, this.#floats);
    const [schType, format] = goSchemaInfo[kind];
    const isFloatInt = schType === 'number' && isJSONInteger(data as number) && types.includes('integer');
    const isIntFloat = schType === 'integer' && types.includes('number');
    if (
      kind !== 'string' &&
      kind !== 'slice' &&
      s.format !== '' &&
      !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)
    ) {
      return Result.of(invalidType(path, s.format, format));
    }
    if (
      !(types.includes('number') || types.includes('integer')) &&
      s.format !== '' &&
      (kind === 'string' || kind === 'slice')
    ) {
      return ok;
    }
    if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
      return Result.of(invalidType(path, types.join(','), schType));
    }
    return ok;
  }

  /** basicCommonValidator: enum. */
  #common(s: OpenAPISchema, data: JsonValue, path: string): Result | undefined {
    const values = s.enum;
    if (values === undefined || values.length === 0) return undefined;
    if (values.some((e) => enumMatches(data, e, this.#floats))) return undefined;
    return Result.of({
      kind: 'validation',
      code: 'Enum',
      name: path,
      value: data,
      values,
      message: `${path} in ${IN} should be one of ${goValue(values, true)}`,
    });
  }

  /** schemaPropsValidator: anyOf, oneOf, allOf, not. */
  #schemaProps(s: OpenAPISchema, data: JsonValue, path: string): Result {
    const main = new Result();
    if (s.anyOf !== undefined && s.anyOf.length > 0) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let succeeded = false;
      for (const sub of s.anyOf) {
        const r = this.#validate(sub, data, path);
        if (r.isValid()) {
          best = undefined;
          succeeded = true;
          firstSuccess ??= r;
          break;
        }
        if (best === undefined || r.matchCount > best.matchCount) best = r;
      }
      if (!succeeded) {
        main.addErrors({
          kind: 'composite',
          message: `${goQuoted(path)} must validate at least one schema (anyOf)`,
        });
      }
      if (best !== undefined) main.merge(best);
      else if (firstSuccess !== undefined) main.merge(firstSuccess);
    }
    if (s.oneOf !== undefined && s.oneOf.length > 0) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let validated = 0;
      for (const sub of s.oneOf) {
        const r = this.#validate(sub, data, path);
        if (r.isValid()) {
          validated++;
          best = undefined;
          firstSuccess ??= r;
          continue;
        }
        if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
      }
      if (validated !== 1) {
        const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
        main.addErrors({
          kind: 'composite',
          message: `${goQuoted(path)} must validate one and only one schema (oneOf). ${more}`,
        });
        if (best !== undefined) main.merge(best);
      } else if (firstSuccess !== undefined) {
        main.merge(firstSuccess);
      }
    }
    if (s.allOf !== undefined && s.allOf.length > 0) {
      let validated = 0;
      for (const sub of s.allOf) {
        const r = this.#validate(sub, data, path);
        if (r.isValid()) validated++;
        main.merge(r);
      }
      if (validated !== s.allOf.length) {
        const more = validated === 0 ? '. None validated' : '';
        main.addErrors({
          kind: 'composite',
          message: `${goQuoted(path)} must validate all the schemas (allOf)${more}`,
        });
      }
    }
    if (s.not !== undefined) {
      if (this.#validate(s.not, data, path).isValid()) {
        main.addErrors({
          kind: 'composite',
          message: `${goQuoted(path)} must not validate the schema (not)`,
        });
      }
    }
    main.matchCount++;
    return main;
  }

  /** stringValidator: maxLength, minLength, pattern (the first failure only). */
  #string(s: OpenAPISchema, data: string, path: string): Result | undefined {
    // utf8.RuneCount: code points, not UTF-16 units.
    const length = Array.from(data).length;
    if (s.maxLength !== undefined && length > s.maxLength) {
      return Result.of({
        kind: 'validation',
        code: 'TooLong',
        name: path,
        value: data,
        valid: s.maxLength,
        message: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
      });
    }
    if (s.minLength !== undefined && length < s.minLength) {
      return Result.of({
        kind: 'validation',
        code: 'TooShort',
        name: path,
        value: data,
        valid: s.minLength,
        message: `${path} in ${IN} should be at least ${s.minLength} chars long`,
      });
    }
    if (s.pattern !== '') {
      const re = compileRegexp(s.pattern);
      let shown: string | undefined;
      if (re instanceof Error) shown = `${s.pattern}, but pattern is invalid: ${re.message}`;
      else if (!re.matcher(data).find()) shown = s.pattern;
      if (shown !== undefined) {
        return Result.of({
          kind: 'validation',
          code: 'Pattern',
          name: path,
          value: data,
          message: `${path} in ${IN} should match '${shown}'`,
        });
      }
    }
    return undefined;
  }

  /** formatValidator. */
  #format(s: OpenAPISchema, data: string, path: string): Result | undefined {
    if (validatesFormat(s.format, data)) return undefined;
    return Result.of(invalidType(path, s.format, data));
  }

  /** numberValidator: multipleOf, minimum, maximum (in that order of reporting). */
  #number(s: OpenAPISchema, data: number, path: string): Result {
    const res = new Result();
    const isInt = goKind(data, this.#floats) === 'int64';
    const err = (code: ValidationCode, message: string, value: JsonValue = data): Result =>
      Result.of({ kind: 'validation', code, name: path, value, message });
    const show = (n: number): string => (isInt ? String(n) : goFloat(n));
    let multiple: Result | undefined;
    let minimum: Result | undefined;
    let maximum: Result | undefined;
    if (s.multipleOf !== undefined) {
      const factor = isInt ? Math.trunc(s.multipleOf) : s.multipleOf;
      if (factor <= 0) {
        multiple = err(
          'MultipleOfMustBePositive',
          `factor MultipleOf declared for ${path} must be positive: ${show(factor)}`,
          factor,
        );
      } else {
        const ok = isInt
          ? data % factor === 0
          : isJSONInteger(factor < 1 ? (1 / factor) * data : data / factor);
        if (!ok) multiple = err('MultipleOf', `${path} in ${IN} should be a multiple of ${show(factor)}`);
      }
    }
    if (s.maximum !== undefined) {
      const max = isInt ? Math.trunc(s.maximum) : s.maximum;
      const excl = s.exclusiveMaximum;
      if ((!excl && data > max) || (excl && data >= max)) {
        const word = excl ? 'less than' : 'less than or equal to';
        maximum = err('Max', `${path} in ${IN} should be ${word} ${show(max)}`);
      }
    }
    if (s.minimum !== undefined) {
      const min = isInt ? Math.trunc(s.minimum) : s.minimum;
      const excl = s.exclusiveMinimum;
      if ((!excl && data < min) || (excl && data <= min)) {
        const word = excl ? 'greater than' : 'greater than or equal to';
        minimum = err('Min', `${path} in ${IN} should be ${word} ${show(min)}`);
      }
    }
    res.merge(multiple, minimum, maximum);
    res.matchCount++;
    return res;
  }

  /** schemaSliceValidator: items, minItems, maxItems, uniqueItems. */
  #slice(s: OpenAPISchema, data: JsonValue[], path: string): Result {
    const result = new Result();
    if (s.items !== undefined) {
      data.forEach((v, i) => result.merge(this.#validate(s.items!, v, `${path}[${i}]`)));
    }
    const size = data.length;
    if (s.minItems !== undefined && size < s.minItems) {
      result.addErrors({
        kind: 'validation',
        code: 'MinItems',
        name: path,
        value: size,
        valid: s.minItems,
        message: `${path} in ${IN} should have at least ${s.minItems} items`,
      });
    }
    if (s.maxItems !== undefined && size > s.maxItems) {
      result.addErrors({
        kind: 'validation',
        code: 'MaxItems',
        name: path,
        value: size,
        valid: s.maxItems,
        message: `${path} in ${IN} should have at most ${s.maxItems} items`,
      });
    }
    if (s.uniqueItems) {
      const dup = data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(v, u)));
      if (dup) {
        result.addErrors({
          kind: 'validation',
          code: 'Unique',
          name: path,
          message: `${path} in ${IN} shouldn't contain duplicates`,
        });
      }
    }
    result.matchCount++;
    return result;
  }

  /** objectValidator: min/maxProperties, additionalProperties, properties, required. */
  #object(s: OpenAPISchema, data: JsonObject, path: string): Result {
    const keys = Object.keys(data);
    const n = keys.length;
    if (s.minProperties !== undefined && n < s.minProperties) {
      return Result.of({
        kind: 'validation',
        code: 'TooFewProperties',
        name: path,
        value: n,
        valid: s.minProperties,
        message: `${path} in ${IN} should have at least ${s.minProperties} properties`,
      });
    }
    if (s.maxProperties !== undefined && n > s.maxProperties) {
      return Result.of({
        kind: 'validation',
        code: 'TooManyProperties',
        name: path,
        value: n,
        valid: s.maxProperties,
        message: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
      });
    }
    const res = new Result();
    const ap = s.additionalProperties;
    if (ap !== undefined && !ap.allows) {
      for (const k of keys) {
        if (s.properties?.has(k) !== true) {
          res.addErrors({
            kind: 'validation',
            code: 'UnallowedProperty',
            name: path,
            value: k,
            message: `${path}.${k} in ${IN} is a forbidden property`,
          });
        }
      }
    } else if (ap?.schema !== undefined) {
      for (const k of keys) {
        if (s.properties?.has(k) !== true) res.merge(this.#validate(ap.schema, data[k]!, `${path}.${k}`));
      }
    }
    for (const [name, sub] of s.properties ?? []) {
      if (Object.hasOwn(data, name)) {
        res.merge(this.#validate(sub, data[name]!, path === '' ? name : `${path}.${name}`));
      }
    }
    for (const k of s.required ?? []) {
      if (!Object.hasOwn(data, k)) {
        res.addErrors({
          kind: 'validation',
          code: 'Required',
          name: `${path}.${k}`,
          message: `${path}.${k} in ${IN} is required`,
        });
      }
    }
    return res;
  }
}
