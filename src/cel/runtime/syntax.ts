// Syntax error diagnosis in cel-go's words. @bufbuild/cel's PEG parser reports "found X but
// expecting Y" at the furthest point it tried; cel-go v0.12.7 reports ANTLR's messages
// (DefaultErrorStrategy over parser/gen/CEL.g4): "token recognition error at: '@'",
// "mismatched input 'true' expecting IDENTIFIER", "extraneous input 'b' expecting <EOF>",
// "missing ')' at '<EOF>'". This file holds a lexer for CEL.g4's tokens and a recognizer of its
// grammar that finds the first error and words it as ANTLR's single-token deletion/insertion
// recovery would. (ANTLR then recovers and may report more; we report the first.)
import type { CelIssue } from '../issues.js';

type Kind = 'op' | 'NUM_FLOAT' | 'NUM_INT' | 'NUM_UINT' | 'STRING' | 'BYTES' | 'IDENTIFIER' | 'EOF';

interface Token {
  readonly kind: Kind;
  /** The literal text: for 'op' the operator or keyword. */
  readonly text: string;
  readonly offset: number;
}

const OPERATORS = [
  '==', '!=', '<=', '>=', '&&', '||',
  '<', '>', '[', ']', '{', '}', '(', ')', '.', ',', '-', '!', '?', ':', '+', '*', '/', '%',
]; // prettier-ignore
const KEYWORDS = new Set(['in', 'true', 'false', 'null']);

/** Token display order (CEL.g4 token types) for "expecting {...}" sets. */
const ORDER = [
  "'=='", "'!='", "'in'", "'<'", "'<='", "'>='", "'>'", "'&&'", "'||'", "'['", "']'", "'{'",
  "'}'", "'('", "')'", "'.'", "','", "'-'", "'!'", "'?'", "':'", "'+'", "'*'", "'/'", "'%'",
  "'true'", "'false'", "'null'", 'NUM_FLOAT', 'NUM_INT', 'NUM_UINT', 'STRING', 'BYTES',
  'IDENTIFIER',
]; // prettier-ignore

const EXPR_START = [
  "'['", "'{'", "'('", "'.'", "'-'", "'!'", "'true'", "'false'", "'null'",
  'NUM_FLOAT', 'NUM_INT', 'NUM_UINT', 'STRING', 'BYTES', 'IDENTIFIER',
]; // prettier-ignore

class SyntaxFailure extends Error {
  readonly issue: CelIssue;
  constructor(issue: CelIssue) {
    super(issue.message);
    this.issue = issue;
  }
}

function display(t: Token): string {
  if (t.kind === 'EOF') return "'<EOF>'";
  return `'${t.text.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

function tokenName(t: Token): string {
  if (t.kind === 'op') return `'${t.text}'`;
  return t.kind;
}

function expecting(names: readonly string[]): string {
  if (names.length === 1) return names[0]!;
  const sorted = [...names].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  return `{${sorted.join(', ')}}`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isLetter = (c: string | undefined) => c !== undefined && /^[A-Za-z_]$/.test(c);

/** Index just past a string literal body starting at the quote at `i`, or the failing index. */
function scanString(src: string, i: number, raw: boolean): { end: number; ok: boolean } {
  const q = src[i]!;
  const triple = src.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < src.length) {
    if (src.startsWith(close, j)) return { end: j + close.length, ok: true };
    const c = src[j]!;
    if (!triple && (c === '\n' || c === '\r')) return { end: j, ok: false };
    if (c === '\\' && !raw) {
      const e = src[j + 1];
      if (e !== undefined && 'abfnrtv"\'\\?`'.includes(e)) j += 2;
      else if ((e === 'x' || e === 'X') && isHex(src[j + 2]) && isHex(src[j + 3])) j += 4;
      else if (e === 'u' && [2, 3, 4, 5].every((k) => isHex(src[j + k]))) j += 6;
      else if (e === 'U' && [2, 3, 4, 5, 6, 7, 8, 9].every((k) => isHex(src[j + k]))) j += 10;
      else if (
        e !== undefined &&
        /[0-3]/.test(e) &&
        /[0-7]/.test(src[j + 2] ?? '') &&
        /[0-7]/.test(src[j + 3] ?? '')
      )
        j += 4;
      else {
        // ANTLR consumes the longest valid start of an escape and fails on the next character
        const limit = e === 'x' || e === 'X' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        let k = j + 2;
        if (limit > 0) while (k < j + 2 + limit && isHex(src[k])) k++;
        else if (e !== undefined && /[0-3]/.test(e)) while (k < j + 4 && /[0-7]/.test(src[k] ?? '')) k++;
        else k = j + 1;
        return { end: Math.min(k, src.length - 1), ok: false };
      }
      continue;
    }
    j++;
  }
  return { end: src.length, ok: false };
}

/**
 * CEL.g4's lexer. Characters no rule takes are "token recognition error at: '...'" issues (the
 * text up to and including the failing character) and skipped, as ANTLR's lexer recovers.
 */
export function lex(src: string): { tokens: Token[]; errors: CelIssue[] } {
  const tokens: Token[] = [];
  const errors: CelIssue[] = [];
  let i = 0;
  const fail = (start: number, end: number): void => {
    const text = src
      .slice(start, end + 1)
      .replace(/\n/g, '\\n')
      .replace(/\t/g, '\\t');
    errors.push({ message: `Syntax error: token recognition error at: '${text}'`, offset: start });
    i = end + 1;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (' \t\r\n\f'.includes(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const start = i;
    // numbers (longest match among NUM_FLOAT, NUM_UINT, NUM_INT)
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
      if (c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X') && isHex(src[i + 2])) {
        i += 2;
        while (isHex(src[i])) i++;
        const unsigned = src[i] === 'u' || src[i] === 'U';
        if (unsigned) i++;
        tokens.push({ kind: unsigned ? 'NUM_UINT' : 'NUM_INT', text: src.slice(start, i), offset: start });
        continue;
      }
      while (isDigit(src[i])) i++;
      let float = false;
      if (src[i] === '.' && isDigit(src[i + 1])) {
        float = true;
        i++;
        while (isDigit(src[i])) i++;
      }
      if (
        (src[i] === 'e' || src[i] === 'E') &&
        (isDigit(src[i + 1]) || (/[+-]/.test(src[i + 1] ?? '') && isDigit(src[i + 2])))
      ) {
        float = true;
        i += src[i + 1] === '+' || src[i + 1] === '-' ? 2 : 1;
        while (isDigit(src[i])) i++;
      }
      if (!float && (src[i] === 'u' || src[i] === 'U')) {
        i++;
        tokens.push({ kind: 'NUM_UINT', text: src.slice(start, i), offset: start });
        continue;
      }
      tokens.push({ kind: float ? 'NUM_FLOAT' : 'NUM_INT', text: src.slice(start, i), offset: start });
      continue;
    }
    // strings and bytes, with r/b prefixes
    const prefix = /^(?:[bB][rR]?|[rR][bB]?)?(?=["'])/.exec(src.slice(i, i + 3))?.[0];
    if (prefix !== undefined && (src[i + prefix.length] === '"' || src[i + prefix.length] === "'")) {
      const raw = /[rR]/.test(prefix);
      const scanned = scanString(src, i + prefix.length, raw);
      if (!scanned.ok) {
        fail(start, scanned.end);
        continue;
      }
      tokens.push({
        kind: /[bB]/.test(prefix) ? 'BYTES' : 'STRING',
        text: src.slice(start, scanned.end),
        offset: start,
      });
      i = scanned.end;
      continue;
    }
    if (isLetter(c)) {
      while (isLetter(src[i]) || isDigit(src[i])) i++;
      const text = src.slice(start, i);
      tokens.push({ kind: KEYWORDS.has(text) ? 'op' : 'IDENTIFIER', text, offset: start });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      tokens.push({ kind: 'op', text: op, offset: start });
      i += op.length;
      continue;
    }
    // '=', '&', '|' begin two-character tokens: ANTLR reports the next character too
    fail(
      start,
      '=&|'.includes(c) && i + 1 < src.length ? i + 1 : i + Array.from(src.slice(i, i + 2))[0]!.length - 1,
    );
  }
  tokens.push({ kind: 'EOF', text: '', offset: src.length });
  return { tokens, errors };
}

const RELATIONS = new Set(['<', '<=', '>=', '>', '==', '!=', 'in']);
const MULTIPLICATIVE = new Set(['*', '/', '%']);
const ADDITIVE = new Set(['+', '-']);
/** Tokens that may follow a complete member expression. */
const AFTER_MEMBER = new Set([
  ...RELATIONS, ...MULTIPLICATIVE, ...ADDITIVE,
  '&&', '||', '?', ':', ',', ')', ']', '}', '.', '[', '{',
]); // prettier-ignore

class Recognizer {
  #tokens: Token[];
  #i = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  get #la(): Token {
    return this.#tokens[this.#i]!;
  }

  #peek(n: number): Token {
    return this.#tokens[Math.min(this.#i + n, this.#tokens.length - 1)]!;
  }

  #is(text: string): boolean {
    return this.#la.kind === 'op' && this.#la.text === text;
  }

  #startsExpr(t: Token): boolean {
    return t.kind !== 'EOF' && EXPR_START.includes(tokenName(t));
  }

  #fail(message: string, at: Token): never {
    throw new SyntaxFailure({ message: `Syntax error: ${message}`, offset: at.offset });
  }

  /** match(X): single-token deletion, then insertion, else mismatch (DefaultErrorStrategy). */
  #match(name: string, follows: (t: Token) => boolean): void {
    const t = this.#la;
    if (tokenName(t) === name) {
      this.#i++;
      return;
    }
    if (tokenName(this.#peek(1)) === name) this.#fail(`extraneous input ${display(t)} expecting ${name}`, t);
    if (follows(t)) this.#fail(`missing ${name} at ${display(t)}`, t);
    this.#fail(`mismatched input ${display(t)} expecting ${name}`, t);
  }

  #closing(name: string): void {
    this.#match(name, (t) => t.kind === 'EOF' || (t.kind === 'op' && AFTER_MEMBER.has(t.text)));
  }

  start(): void {
    this.#expr();
    const t = this.#la;
    if (t.kind !== 'EOF') {
      const verb = this.#peek(1).kind === 'EOF' ? 'extraneous' : 'mismatched';
      this.#fail(`${verb} input ${display(t)} expecting <EOF>`, t);
    }
  }

  #expr(): void {
    this.#binary(0);
    if (this.#is('?')) {
      this.#i++;
      this.#binary(0);
      this.#match("':'", (t) => this.#startsExpr(t));
      this.#expr();
    }
  }

  /** conditionalOr, conditionalAnd, relation, calc by precedence level. */
  #binary(level: number): void {
    const levels = [new Set(['||']), new Set(['&&']), RELATIONS, ADDITIVE, MULTIPLICATIVE];
    if (level >= levels.length) {
      this.#unary();
      return;
    }
    this.#binary(level + 1);
    while (this.#la.kind === 'op' && levels[level]!.has(this.#la.text)) {
      this.#i++;
      this.#binary(level + 1);
    }
  }

  #unary(): void {
    while (this.#is('!') || (this.#is('-') && !this.#numberAfterMinus())) this.#i++;
    this.#member();
  }

  #numberAfterMinus(): boolean {
    const next = this.#peek(1);
    return next.kind === 'NUM_INT' || next.kind === 'NUM_FLOAT';
  }

  #member(): void {
    this.#primary();
    for (;;) {
      if (this.#is('.')) {
        this.#i++;
        this.#match(
          'IDENTIFIER',
          (t) => t.kind === 'EOF' || (t.kind === 'op' && (t.text === '(' || AFTER_MEMBER.has(t.text))),
        );
        if (this.#is('(')) this.#args(')');
      } else if (this.#is('[')) {
        this.#i++;
        this.#expectExpr();
        this.#expr();
        this.#closing("']'");
      } else if (this.#is('{')) {
        this.#i++;
        this.#fields();
      } else {
        return;
      }
    }
  }

  #expectExpr(alternatives: readonly string[] = []): void {
    const t = this.#la;
    if (this.#startsExpr(t)) return;
    const set = expecting([...EXPR_START, ...alternatives]);
    if (t.kind !== 'EOF' && this.#startsExpr(this.#peek(1)))
      this.#fail(`extraneous input ${display(t)} expecting ${set}`, t);
    this.#fail(`mismatched input ${display(t)} expecting ${set}`, t);
  }

  /** '(' exprList? ')' or '[' exprList? ','? ']' after the opening token. */
  #args(close: string): void {
    this.#i++;
    if (!this.#is(close)) {
      this.#expectExpr(close === ']' ? ["']'", "','"] : [`'${close}'`]);
      this.#expr();
      while (this.#is(',')) {
        this.#i++;
        if (close === ']' && this.#is(']')) break;
        this.#expectExpr();
        this.#expr();
      }
    }
    this.#closing(`'${close}'`);
  }

  #fields(): void {
    let first = true;
    while (!this.#is('}')) {
      const t = this.#la;
      if (first && t.kind !== 'IDENTIFIER' && !(t.kind === 'op' && t.text === ',')) {
        const set = expecting(["'}'", "','", 'IDENTIFIER']);
        const verb = this.#peek(1).kind === 'IDENTIFIER' ? 'extraneous' : 'mismatched';
        this.#fail(`${verb} input ${display(t)} expecting ${set}`, t);
      }
      first = false;
      if (this.#is(',')) break;
      this.#match('IDENTIFIER', (x) => x.kind === 'op' && x.text === ':');
      this.#match("':'", (t) => this.#startsExpr(t));
      this.#expectExpr();
      this.#expr();
      if (!this.#is(',')) break;
      this.#i++;
    }
    if (this.#is(',')) this.#i++;
    this.#closing("'}'");
  }

  #mapEntries(): void {
    let first = true;
    while (!this.#is('}')) {
      if (first && this.#is(',')) break;
      this.#expectExpr(first ? ["'}'", "','"] : []);
      first = false;
      this.#expr();
      this.#match("':'", (t) => this.#startsExpr(t));
      this.#expectExpr();
      this.#expr();
      if (!this.#is(',')) break;
      this.#i++;
    }
    if (this.#is(',')) this.#i++;
    this.#closing("'}'");
  }

  #primary(): void {
    this.#expectExpr();
    const t = this.#la;
    if (t.kind === 'op') {
      switch (t.text) {
        case '.':
          this.#i++;
          this.#match('IDENTIFIER', (x) => x.kind === 'EOF' || (x.kind === 'op' && AFTER_MEMBER.has(x.text)));
          if (this.#is('(')) this.#args(')');
          return;
        case '(':
          this.#i++;
          this.#expectExpr();
          this.#expr();
          this.#closing("')'");
          return;
        case '[':
          this.#args(']');
          return;
        case '{':
          this.#i++;
          this.#mapEntries();
          return;
        case '-':
          this.#i += 2; // a negative number literal
          return;
        default:
          this.#i++; // true, false, null
          return;
      }
    }
    this.#i++;
    if (t.kind === 'IDENTIFIER' && this.#is('(')) this.#args(')');
  }
}

/**
 * The syntax errors cel-go would report for `source` (its token recognition errors and the first
 * parse error over the remaining tokens); empty when none is found.
 */
export function diagnoseSyntax(source: string): CelIssue[] {
  const { tokens, errors } = lex(source);
  try {
    new Recognizer(tokens).start();
    return errors;
  } catch (err) {
    if (err instanceof SyntaxFailure) return [...errors, err.issue];
    throw err;
  }
}

/** The token recognition errors of `source`. */
export function lexErrors(source: string): CelIssue[] {
  return lex(source).errors;
}
