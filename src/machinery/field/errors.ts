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
 * A bad value already rendered as Go prints it (a struct's `%#v`, a Stringer's `String()`, a
 * float's `%v`): printed as is, unquoted.
 */
export class GoRendered {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export function goRendered(text: string): GoRendered {
  return new GoRendered(text);
}

/**
 * Go's rendering of the values validation reports, as field.Error.ErrorBody (apimachinery v0.27):
 * nil (or a nil pointer) becomes the string "null"; strings print with `%q`; integers, floats and
 * booleans with `%v`; anything else (slices, maps, structs) with `%#v`. JSON carries no Go type,
 * so arrays of strings print as `[]string{...}`, arrays of integers as `[]int32{...}`, and objects
 * whose values are all strings as `map[string]string{...}` (keys sorted, as fmt sorts them);
 * other composites need a {@link GoRendered} from the caller.
 */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (value instanceof GoRendered) return value.text;
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : goFloat(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return goSlice(value);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([, v]) => typeof v === 'string')) {
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `map[string]string{${entries.map(([k, v]) => `${goQuote(k)}:${goQuote(v as string)}`).join(', ')}}`;
    }
  }
  return JSON.stringify(value) ?? typeof value;
}

/** Go's `%#v` of a slice whose element type follows from its JSON elements. */
function goSlice(values: readonly unknown[]): string {
  const strings = values.filter((v): v is string => typeof v === 'string');
  if (strings.length === values.length) return `[]string{${strings.map(goQuote).join(', ')}}`;
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v)))
    return `[]int32{${values.map(String).join(', ')}}`;
  return `[]interface {}{${values.map(formatValue).join(', ')}}`;
}

/**
 * Go's `%v` of a float64: strconv's shortest 'g' form, which switches to an exponent (of at least
 * two digits) when the decimal exponent is below -4 or at least 6.
 */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa = '0', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

/**
 * Go's `%q` (strconv.Quote): printable runes as they are, `\a \b \f \n \r \t \v`, other
 * control and non-printable runes as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp === 0x20 || (cp > 0x20 && cp < 0x7f)) out += ch;
    else if (cp < 0x80) out += goControlEscape(cp);
    else if (printable.test(ch)) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff)
      out += '\ufffd'; // Go decodes a lone surrogate as U+FFFD
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return out + '"';
}

/** strconv.IsPrint: letters, marks, numbers, punctuation and symbols (and the ASCII space). */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function goControlEscape(cp: number): string {
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
    default:
      return `\\x${cp.toString(16).padStart(2, '0')}`;
  }
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
