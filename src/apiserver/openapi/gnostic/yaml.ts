/**
 * YAML text for gnostic `Any.yaml`, shaped like Go's gopkg.in/yaml.v3 `Marshal` of a yaml.Node whose
 * styles were cleared (what gnostic's compiler does): block style, 4-space indentation rounded to
 * multiples of 4 (items of a sequence indent by the 2 columns of "- "), plain scalars where YAML
 * allows them, double quotes for strings that would otherwise read as another type, single quotes
 * when a plain scalar is not allowed, literal blocks for multi-line strings, `{}` / `[]` for empty
 * collections, and a trailing newline.
 */

const INDENT = 4;

const NON_STRING_WORDS = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '.nan',
  '.NaN',
  '.NAN',
  '<<',
]);
const INT_RE = /^[-+]?(?:0b[01]+|0o?[0-7]+|0x[0-9a-fA-F]+|[0-9]+)$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const TIMESTAMP_RE = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}.*)?$/;

/** True when YAML would resolve this plain text to something other than a string. */
function readsAsNonString(s: string): boolean {
  if (NON_STRING_WORDS.has(s)) return true;
  const noUnderscore = s.includes('_') ? s.replaceAll('_', '') : s;
  return INT_RE.test(noUnderscore) || FLOAT_RE.test(s) || TIMESTAMP_RE.test(s);
}

const FIRST_INDICATORS = '#,[]{}&*!|>\'"%@`';

/** libyaml's "plain scalar allowed in block context" analysis, for single-line strings. */
function plainAllowed(s: string): boolean {
  if (s.startsWith('---') || s.startsWith('...')) return false;
  const first = s[0]!;
  if (FIRST_INDICATORS.includes(first)) return false;
  if ((first === '-' || first === '?' || first === ':') && (s.length === 1 || s[1] === ' ')) {
    return false;
  }
  if (s.startsWith(' ') || s.endsWith(' ')) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0xfeff) return false;
    if (c === 0x3a /* : */ && (i === s.length - 1 || s[i + 1] === ' ')) return false;
    if (c === 0x23 /* # */ && s[i - 1] === ' ') return false;
  }
  return true;
}

function hasSpecialChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a) || c === 0x7f || c === 0xfeff || (c >= 0x80 && c < 0xa0)) return true;
  }
  return false;
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0xfeff) {
      out += `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** A string scalar; `indent` is the column block-scalar content lines start at. */
function stringScalar(s: string, indent: number, isKey: boolean): string {
  if (readsAsNonString(s) || hasSpecialChars(s)) return doubleQuoted(s);
  if (s.includes('\n')) {
    if (isKey) return doubleQuoted(s);
    const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
    const body = s.endsWith('\n') ? s.slice(0, -1) : s;
    const pad = ' '.repeat(indent);
    const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
    const lead = s.startsWith(' ') ? String(INDENT) : '';
    return `|${lead}${chomp}\n${lines.join('\n')}`;
  }
  if (plainAllowed(s)) return s;
  return `'${s.replaceAll("'", "''")}'`;
}

function scalar(v: unknown, indent: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number')
    return Number.isFinite(v) ? String(v) : v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
  if (typeof v === 'string') return stringScalar(v, indent, false);
  return doubleQuoted(JSON.stringify(v));
}

function isCollection(v: unknown): v is object {
  return typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

function emptyCollection(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) return '{}';
  return undefined;
}

/** Indentation of a block collection nested in a mapping whose keys sit at `indent`. */
function nestedIndent(indent: number, top: boolean): number {
  return top ? 0 : INDENT * Math.floor((indent + INDENT) / INDENT);
}

/**
 * Emits a value at `indent`; `inline` means the cursor is right after "- " (so the first line is
 * already positioned). Returns lines without the trailing newline.
 */
function emit(v: unknown, indent: number, inline: boolean, out: string[]): void {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    v.forEach((item: unknown, i) => {
      const prefix = inline && i === 0 ? '- ' : `${pad}- `;
      pushItem(prefix, item, indent + 2, out);
    });
    return;
  }
  const obj = v as Record<string, unknown>;
  let first = true;
  for (const key of Object.keys(obj)) {
    const val = obj[key];
    const k = stringScalar(key, indent, true);
    const prefix = inline && first ? '' : pad;
    first = false;
    if (isCollection(val)) {
      out.push(`${prefix}${k}:`);
      emit(val, nestedIndent(indent, false), false, out);
    } else {
      const e = emptyCollection(val);
      out.push(`${prefix}${k}: ${e ?? scalar(val, nestedIndent(indent, false))}`);
    }
  }
}

function pushItem(prefix: string, item: unknown, childIndent: number, out: string[]): void {
  if (isCollection(item)) {
    const start = out.length;
    emit(item, childIndent, true, out);
    out[start] = prefix + (out[start] ?? '');
  } else {
    out.push(prefix + (emptyCollection(item) ?? scalar(item, childIndent)));
  }
}

/** YAML document text for a JSON value, as gnostic stores it in `Any.yaml`. */
export function toGoYaml(v: unknown): string {
  if (!isCollection(v)) {
    const e = emptyCollection(v);
    return `${e ?? scalar(v, INDENT)}\n`;
  }
  const out: string[] = [];
  emit(v, nestedIndent(0, true), false, out);
  return `${out.join('\n')}\n`;
}
