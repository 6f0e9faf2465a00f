/**
 * Go encoding/json's syntax check (its `checkValid` scanner), reporting the first error with the
 * text Go prints: `invalid character 'n' looking for beginning of object key string`,
 * `unexpected end of JSON input`, … Bytes are scanned as Go scans them (one byte at a time, so a
 * multi-byte character is reported by its first byte). Meant for the slow path only: call it when
 * JSON.parse has already failed (or a depth bound was crossed), to word the error as upstream does.
 */

/** Go's `maxNestingDepth` in encoding/json's scanner. */
export const goMaxNestingDepth = 10000;

/** A syntax error as Go's `*json.SyntaxError`: its message and the byte offset it carries. */
export interface GoJsonSyntaxError {
  readonly message: string;
  /** Bytes read before the error (Go's `Offset`), for tests; Go's Error() does not print it. */
  readonly offset: number;
}

const enum Ctx {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

/** Whether `strconv.IsPrint` holds for the code point of a single byte (U+0000–U+00FF). */
function isPrintLatin1(c: number): boolean {
  if (c < 0x20 || c === 0x7f) return false;
  if (c >= 0x80 && c <= 0xa0) return false;
  return c !== 0xad;
}

/** Go's `quoteChar`: how the scanner names the offending byte. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  // strconv.Quote(string(rune(c))) without its double quotes.
  const named: Record<number, string> = {
    0x07: '\\a',
    0x08: '\\b',
    0x0c: '\\f',
    0x0a: '\\n',
    0x0d: '\\r',
    0x09: '\\t',
    0x0b: '\\v',
    0x5c: '\\\\',
  };
  const n = named[c];
  if (n !== undefined) return `'${n}'`;
  if (isPrintLatin1(c)) return `'${String.fromCharCode(c)}'`;
  if (c < 0x80) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  return `'\\u${c.toString(16).padStart(4, '0')}'`;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

type Step = (c: number) => void;

class Failure extends Error {}

/**
 * The first syntax error of `data` as Go's json.Unmarshal reports it, or undefined when the input
 * is valid JSON. `maxDepth` is Go's nesting bound unless a caller enforces a smaller one.
 */
export function goJsonSyntaxError(
  data: Uint8Array,
  maxDepth: number = goMaxNestingDepth,
): GoJsonSyntaxError | undefined {
  const stack: Ctx[] = [];
  let endTop = false;
  let step: Step;

  const fail = (c: number, context: string): never => {
    throw new Failure(`invalid character ${goQuoteChar(c)} ${context}`);
  };
  const push = (c: number, ctx: Ctx): void => {
    stack.push(ctx);
    if (stack.length > maxDepth) fail(c, 'exceeded max depth');
  };
  const pop = (): void => {
    stack.pop();
    if (stack.length === 0) {
      step = endTopState;
      endTop = true;
    } else step = endValue;
  };

  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    beginValue(c);
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: // {
        step = beginStringOrEmpty;
        return push(c, Ctx.ObjectKey);
      case 0x5b: // [
        step = beginValueOrEmpty;
        return push(c, Ctx.ArrayValue);
      case 0x22:
        step = inString;
        return;
      case 0x2d:
        step = neg;
        return;
      case 0x30:
        step = zero;
        return;
      case 0x74:
        step = literal('true', 1);
        return;
      case 0x66:
        step = literal('false', 1);
        return;
      case 0x6e:
        step = literal('null', 1);
        return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = digits;
      return;
    }
    fail(c, 'looking for beginning of value');
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = Ctx.ObjectValue;
      return endValue(c);
    }
    beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) {
      step = inString;
      return;
    }
    fail(c, 'looking for beginning of object key string');
  };
  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      step = endTopState;
      endTop = true;
      return endTopState(c);
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    switch (stack[n - 1]!) {
      case Ctx.ObjectKey:
        if (c === 0x3a) {
          stack[n - 1] = Ctx.ObjectValue;
          step = beginValue;
          return;
        }
        return fail(c, 'after object key');
      case Ctx.ObjectValue:
        if (c === 0x2c) {
          stack[n - 1] = Ctx.ObjectKey;
          step = beginString;
          return;
        }
        if (c === 0x7d) return pop();
        return fail(c, 'after object key:value pair');
      case Ctx.ArrayValue:
        if (c === 0x2c) {
          step = beginValue;
          return;
        }
        if (c === 0x5d) return pop();
        return fail(c, 'after array element');
    }
  };
  const endTopState: Step = (c) => {
    if (!isSpace(c)) fail(c, 'after top-level value');
  };
  const inString: Step = (c) => {
    if (c === 0x22) {
      step = endValue;
      return;
    }
    if (c === 0x5c) {
      step = inStringEsc;
      return;
    }
    if (c < 0x20) fail(c, 'in string literal');
  };
  const inStringEsc: Step = (c) => {
    // b f n r t \ / "
    if ([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22].includes(c)) {
      step = inString;
      return;
    }
    if (c === 0x75) {
      step = escU(4);
      return;
    }
    fail(c, 'in string escape code');
  };
  const escU =
    (left: number): Step =>
    (c) => {
      if (!isHex(c)) return fail(c, 'in \\u hexadecimal character escape');
      step = left === 1 ? inString : escU(left - 1);
    };
  const neg: Step = (c) => {
    if (c === 0x30) {
      step = zero;
      return;
    }
    if (c >= 0x31 && c <= 0x39) {
      step = digits;
      return;
    }
    fail(c, 'in numeric literal');
  };
  const digits: Step = (c) => {
    if (isDigit(c)) return;
    zero(c);
  };
  const zero: Step = (c) => {
    if (c === 0x2e) {
      step = dot;
      return;
    }
    if (c === 0x65 || c === 0x45) {
      step = exp;
      return;
    }
    endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) {
      step = dot0;
      return;
    }
    fail(c, 'after decimal point in numeric literal');
  };
  const dot0: Step = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) {
      step = exp;
      return;
    }
    endValue(c);
  };
  const exp: Step = (c) => {
    if (c === 0x2b || c === 0x2d) {
      step = expSign;
      return;
    }
    expSign(c);
  };
  const expSign: Step = (c) => {
    if (isDigit(c)) {
      step = exp0;
      return;
    }
    fail(c, 'in exponent of numeric literal');
  };
  const exp0: Step = (c) => {
    if (isDigit(c)) return;
    endValue(c);
  };
  const literal =
    (word: string, at: number): Step =>
    (c) => {
      const want = word.charCodeAt(at);
      if (c !== want) return fail(c, `in literal ${word} (expecting '${word[at]!}')`);
      step = at + 1 === word.length ? endValue : literal(word, at + 1);
    };

  step = beginValue;
  let offset = 0;
  try {
    for (const c of data) {
      offset++;
      step(c);
    }
    // Go's scanner.eof(): a final space completes a top-level number.
    if (endTop) return undefined;
    step(0x20);
    if (endTop) return undefined;
    return { message: 'unexpected end of JSON input', offset };
  } catch (err) {
    if (err instanceof Failure) return { message: err.message, offset };
    throw err;
  }
}
