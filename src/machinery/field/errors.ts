/**
 * Field errors as k8s.io/apimachinery/pkg/util/validation/field: a path, a type, the bad value and
 * a detail, rendered exactly like upstream so Status messages match kube-apiserver.
 */

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** A bad value that omits the value from messages (upstream's `field.OmitValueType`). */
export const omitValue: unique symbol = Symbol('omitValue');

export class FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;

  constructor(type: FieldErrorType, field: FieldPath | string, badValue: unknown, detail: string) {
    this.type = type;
    this.field = typeof field === 'string' ? field : field.toString();
    this.badValue = badValue;
    this.detail = detail;
  }

  /** Upstream `ErrorBody()`: the message without the field path. */
  body(): string {
    let s: string;
    const text = typeText[this.type];
    if (
      this.type === 'FieldValueRequired' ||
      this.type === 'FieldValueForbidden' ||
      this.type === 'FieldValueTooLong' ||
      this.type === 'InternalError'
    ) {
      s = text;
    } else if (this.badValue === omitValue) {
      s = text;
    } else {
      s = `${text}: ${formatValue(this.badValue)}`;
    }
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }

  /** Upstream `Error()`: `field: body`. */
  toString(): string {
    return `${this.field}: ${this.body()}`;
  }
}

/**
 * Go's rendering of the values validation reports (field.Error.ErrorBody): a nil value or nil
 * pointer becomes the string "null" and prints quoted like any string.
 */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  return JSON.stringify(value);
}

/** Go's `%q` for a string (close to JSON quoting for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** An immutable field path: `spec.containers[0].name`, `metadata.labels[app]`. */
export class FieldPath {
  readonly #parent: FieldPath | undefined;
  readonly #name: string;
  readonly #index: string | undefined;

  private constructor(parent: FieldPath | undefined, name: string, index?: string) {
    this.#parent = parent;
    this.#name = name;
    this.#index = index;
  }

  static root(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(undefined, name);
    for (const m of more) p = p.child(m);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name);
    for (const m of more) p = p.child(m);
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, '', String(i));
  }

  key(k: string): FieldPath {
    return new FieldPath(this, '', k);
  }

  toString(): string {
    const parts: string[] = [this.#index !== undefined ? `[${this.#index}]` : this.#name];
    for (let p = this.#parent; p !== undefined; p = p.#parent) {
      parts.push(p.#index !== undefined ? `[${p.#index}]` : p.#name);
    }
    let s = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = parts[i]!;
      if (s.length > 0 && !part.startsWith('[')) s += '.';
      s += part;
    }
    return s;
  }
}

export type FieldErrorList = FieldError[];

export const fieldErrors = {
  required: (f: FieldPath | string, detail = '') => new FieldError('FieldValueRequired', f, '', detail),
  invalid: (f: FieldPath | string, value: unknown, detail: string) =>
    new FieldError('FieldValueInvalid', f, value, detail),
  notSupported: (f: FieldPath | string, value: unknown, valid: readonly string[]) =>
    new FieldError(
      'FieldValueNotSupported',
      f,
      value,
      valid.length > 0 ? `supported values: ${valid.map(goQuote).join(', ')}` : '',
    ),
  forbidden: (f: FieldPath | string, detail: string) => new FieldError('FieldValueForbidden', f, '', detail),
  duplicate: (f: FieldPath | string, value: unknown) => new FieldError('FieldValueDuplicate', f, value, ''),
  notFound: (f: FieldPath | string, value: unknown) => new FieldError('FieldValueNotFound', f, value, ''),
  tooLong: (f: FieldPath | string, value: unknown, max: number) =>
    new FieldError('FieldValueTooLong', f, value, `must have at most ${max} bytes`),
  tooMany: (f: FieldPath | string, actual: number, max: number) =>
    new FieldError('FieldValueTooMany', f, actual, `must have at most ${max} items`),
  typeInvalid: (f: FieldPath | string, value: unknown, detail: string) =>
    new FieldError('FieldValueTypeInvalid', f, value, detail),
  internal: (f: FieldPath | string, err: Error) => new FieldError('InternalError', f, '', err.message),
} as const;
