/**
 * Field selectors as k8s.io/apimachinery/pkg/fields (v0.27): `a=b,c!=d` (also `==`), values
 * escaped with backslash (`\,` `\=` `\\`), terms sorted, a missing field reading as "".
 */

/** Upstream reports `==` terms as `=` (selection.Equals). */
export type FieldSelectorOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldSelectorOperator;
  readonly value: string;
}

/** A field selector that does not parse; `message` is upstream's error text. */
export class FieldSelectorParseError extends Error {
  override readonly name = 'FieldSelectorParseError';
}

/** Upstream EscapeValue. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Upstream UnescapeValue; throws FieldSelectorParseError on a bad escape or a bare `,`/`=`. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point.
      throw new FieldSelectorParseError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)!}`,
      );
    } else {
      out += c;
    }
  }
  if (inSlash) throw new FieldSelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

export class FieldSelector {
  readonly #reqs: readonly FieldRequirement[];
  readonly #nothing: boolean;

  constructor(reqs: readonly FieldRequirement[], options: { nothing?: boolean } = {}) {
    this.#reqs = reqs;
    this.#nothing = options.nothing ?? false;
  }

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  static nothing(): FieldSelector {
    return new FieldSelector([], { nothing: true });
  }

  requirements(): readonly FieldRequirement[] {
    return this.#reqs;
  }

  matches(fields: Record<string, string>): boolean {
    if (this.#nothing) return false;
    return this.#reqs.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? fields[r.field]! : '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  empty(): boolean {
    return !this.#nothing && this.#reqs.length === 0;
  }

  /** The value `field` must equal for a match, if an `=` term pins it. */
  requiresExactMatch(field: string): string | undefined {
    return this.#reqs.find((r) => r.field === field && r.operator === '=')?.value;
  }

  toString(): string {
    return this.#reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** Split on unescaped commas. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): [string, (typeof termOperators)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/** Go's sort.Strings order (bytewise UTF-8). */
function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Upstream fields.ParseSelector; throws FieldSelectorParseError with upstream's message. */
export function parseFieldSelector(s: string): FieldSelector {
  const parts = splitTerms(s).sort(byteCompare);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined)
      throw new FieldSelectorParseError(`invalid selector: '${s}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    const value = unescapeFieldValue(rhs);
    // Upstream's identity transform drops terms with neither field nor value.
    if (field === '' && value === '') continue;
    reqs.push({ field, operator: op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(reqs);
}

/** A field label converted to the storage version's, or upstream's error for it. */
export type FieldLabelResult = { readonly label: string } | { readonly error: string };

/**
 * A served kind's field label conversion (upstream's `scheme.AddFieldLabelConversionFunc`): which
 * field-selector labels a list/watch at that version may use, and what they are called in storage.
 */
export type FieldLabelConversion = (label: string) => FieldLabelResult;

/** The message most conversion funcs of kube-apiserver return. */
export const fieldLabelNotSupported = (label: string): string => `field label not supported: ${label}`;

/**
 * Upstream's `runtime.DefaultMetaV1FieldSelectorConversion`, used for every kind without its own
 * conversion func: only metadata.name and metadata.namespace.
 */
export function defaultFieldLabelConversion(label: string): FieldLabelResult {
  if (label === 'metadata.name' || label === 'metadata.namespace') return { label };
  return { error: `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"` };
}

/**
 * A conversion func accepting `labels` (a list, or a map of served label → storage label) and
 * answering `error(label)` for anything else.
 */
export function fieldLabelConversion(
  labels: readonly string[] | ReadonlyMap<string, string>,
  error: (label: string) => string = fieldLabelNotSupported,
): FieldLabelConversion {
  const map: ReadonlyMap<string, string> = Array.isArray(labels)
    ? new Map(labels.map((l) => [l, l]))
    : (labels as ReadonlyMap<string, string>);
  return (label) => {
    const to = map.get(label);
    return to === undefined ? { error: error(label) } : { label: to };
  };
}

/** Upstream's `field label not supported: <name>` for the first unsupported field, else undefined. */
export function checkFieldSelectorSupported(
  sel: FieldSelector,
  supported: ReadonlySet<string>,
): string | undefined {
  for (const r of sel.requirements())
    if (!supported.has(r.field)) return `field label not supported: ${r.field}`;
  return undefined;
}
