/**
 * Property names as CEL identifiers, as apiserver v0.27.16 pkg/cel/escaping.go: reserved words
 * become `__in__` etc., `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`, `/` →
 * `__slash__`; names with other characters, or starting with a digit, are not accessible.
 */

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const PLAIN = /^[a-zA-Z0-9_]*$/;

/** The CEL identifier for a property name, or undefined when the property cannot be named. */
export function escapeName(ident: string): string | undefined {
  if (ident === '' || (ident[0] !== undefined && ident[0] >= '0' && ident[0] <= '9')) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  let out = '';
  for (let i = 0; i < ident.length; i++) {
    const c = ident[i] as string;
    if (c === '_' && ident[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else if (PLAIN.test(c)) out += c;
    else return undefined;
  }
  return out;
}

/** The property name a CEL identifier stands for, or undefined when it is not a valid escape. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (match) => {
    const contents = match.slice(2, -2);
    switch (contents) {
      case 'underscores':
        return '__';
      case 'dot':
        return '.';
      case 'dash':
        return '-';
      case 'slash':
        return '/';
    }
    if (RESERVED.has(contents)) {
      if (match.length !== escaped.length) ok = false;
      return contents;
    }
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
