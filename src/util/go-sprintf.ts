/**
 * Go's fmt.Sprintf (and fmt.Errorf) given a format and no arguments: what Go prints when a text
 * that was never meant as a format is used as one. Every verb is missing its operand
 * (`%s` → `%!s(MISSING)`), `%%` is a percent sign, a trailing `%` is `%!(NOVERB)`, a `*` width
 * or precision is `%!(BADWIDTH)` / `%!(BADPREC)`, and an explicit `[n]` index is `(BADINDEX)`.
 * Mirrors fmt's doPrintf scanning (flags, index, width, precision, verb) for that case only.
 */

const flags = new Set(['#', '0', '+', '-', ' ']);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** fmt's parsenum: digits from `i` (below `end`); whether any were read, and where it stopped. */
function skipNumber(s: string, i: number, end: number): { found: boolean; next: number } {
  let j = i;
  while (j < end && isDigit(s[j])) j++;
  return { found: j > i, next: j };
}

/**
 * fmt's argNumber with no operands: a `[n]` at `i` is skipped (and always a bad index); `found`
 * says whether it was well formed.
 */
function skipIndex(s: string, i: number): { next: number; found: boolean; bad: boolean } {
  if (s[i] !== '[') return { next: i, found: false, bad: false };
  if (s.length - i < 3) return { next: i + 1, found: false, bad: true };
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === ']') {
      const n = skipNumber(s, i + 1, j);
      return { next: j + 1, found: n.found && n.next === j, bad: true };
    }
  }
  return { next: i + 1, found: false, bad: true };
}

export function goSprintfWithoutArgs(format: string): string {
  let out = '';
  const end = format.length;
  let i = 0;
  while (i < end) {
    const percent = format.indexOf('%', i);
    if (percent < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    let goodIndex = true;
    while (i < end && flags.has(format[i]!)) i++;
    let index = skipIndex(format, i);
    i = index.next;
    if (index.bad) goodIndex = false;
    let afterIndex = index.found;
    if (format[i] === '*') {
      i++;
      out += '%!(BADWIDTH)';
      afterIndex = false;
    } else {
      const width = skipNumber(format, i, end);
      i = width.next;
      if (afterIndex && width.found) goodIndex = false;
    }
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodIndex = false;
      index = skipIndex(format, i);
      i = index.next;
      if (index.bad) goodIndex = false;
      afterIndex = index.found;
      if (format[i] === '*') {
        i++;
        out += '%!(BADPREC)';
        afterIndex = false;
      } else {
        i = skipNumber(format, i, end).next;
      }
    }
    if (!afterIndex) {
      index = skipIndex(format, i);
      i = index.next;
      if (index.bad) goodIndex = false;
    }
    if (i >= end) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') out += '%';
    else out += `%!${verb}(${goodIndex ? 'MISSING' : 'BADINDEX'})`;
  }
  return out;
}
