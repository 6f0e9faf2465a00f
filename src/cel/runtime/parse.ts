// Parsing a CEL expression: @bufbuild/cel's parser (cel-spec Expr + SourceInfo, macros expanded
// into comprehensions as cel-go's parser does), plus the checks cel-go v0.12.7 parser/parser.go
// makes that it does not: the code point size limit, the recursion limit, has() and macro
// argument shapes, and int/uint/double literal ranges. Failures are CelCompileError with cel-go's
// message text where we know it.
import { parse } from '@bufbuild/cel';
import type { Expr, SourceInfo } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { CelCompileError, type CelIssue } from '../issues.js';
import { alignPositions } from './positions.js';
import { diagnoseSyntax, lexErrors } from './syntax.js';

export type { Expr, SourceInfo };

/** A parsed expression as @bufbuild/cel's `parse` returns it. */
export interface ParsedCel {
  readonly expr: Expr;
  readonly sourceInfo: SourceInfo;
}

/** cel-go parser defaults (parser/options.go): expressionSizeCodePointLimit and maxRecursionDepth. */
export const EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000;
export const MAX_RECURSION_DEPTH = 250;

/** cel-go's common.NoLocation, shown as "<input>:-1:0". */
export const NO_LOCATION = -1;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Parse `source` or throw CelCompileError. */
export function parseCel(source: string): ParsedCel {
  const size = Array.from(source).length;
  if (size > EXPRESSION_SIZE_CODE_POINT_LIMIT) {
    throw new CelCompileError(source, [
      {
        message: `expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_CODE_POINT_LIMIT}`,
        offset: NO_LOCATION,
      },
    ]);
  }
  // cel-go's recursion listener counts nested `expr` rules; every ( [ { opens one.
  if (bracketDepth(source) + 1 >= MAX_RECURSION_DEPTH) {
    throw new CelCompileError(source, [
      {
        message: `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}`,
        offset: NO_LOCATION,
      },
    ]);
  }
  // cel-go's lexer rejects what @bufbuild/cel's parser lets through (e.g. "\\q" escapes)
  const lexIssues = lexErrors(source);
  if (lexIssues.length > 0) throw new CelCompileError(source, diagnoseSyntax(source));
  let parsed: { expr: Expr; sourceInfo?: SourceInfo | undefined };
  try {
    parsed = parse(source);
  } catch (err) {
    const reserved = reservedIssue(source, err);
    const diagnosed = diagnoseSyntax(source);
    throw new CelCompileError(
      source,
      reserved !== undefined ? [reserved] : diagnosed.length > 0 ? diagnosed : [syntaxIssue(err)],
    );
  }
  const sourceInfo = parsed.sourceInfo;
  if (sourceInfo === undefined) {
    throw new CelCompileError(source, [{ message: 'missing source info', offset: NO_LOCATION }]);
  }
  fillLineOffsets(source, sourceInfo);
  alignPositions(source, parsed.expr, sourceInfo);
  const issues: CelIssue[] = [];
  const depth = validate(parsed.expr, sourceInfo, issues, 0);
  if (depth > MAX_RECURSION_DEPTH) {
    issues.push({ message: 'max recursion depth exceeded', offset: NO_LOCATION });
  }
  if (issues.length > 0) throw new CelCompileError(source, issues);
  return { expr: parsed.expr, sourceInfo };
}

/** cel-go fills SourceInfo.line_offsets (offset just past each newline); @bufbuild/cel leaves it empty. */
function fillLineOffsets(source: string, info: SourceInfo): void {
  if (info.lineOffsets.length > 0) return;
  for (let i = 0; i < source.length; i++) {
    if (source.charCodeAt(i) === 0x0a) info.lineOffsets.push(i + 1);
  }
  info.lineOffsets.push(source.length + 1);
}

/** Deepest nesting of ( [ { outside string literals and comments. */
function bracketDepth(source: string): number {
  let depth = 0;
  let max = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(source, i);
      continue;
    }
    if (c === '(' || c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    i++;
  }
  return max;
}

/** Index just past the string literal starting at `start` (a quote, maybe after r/b prefixes). */
function skipString(source: string, start: number): number {
  const quote = source[start]!;
  const prefix = source.slice(Math.max(0, start - 2), start).toLowerCase();
  const raw = prefix.endsWith('r');
  const triple = source.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  while (i < source.length) {
    if (!raw && source[i] === '\\') {
      i += 2;
      continue;
    }
    if (source.startsWith(close, i)) return i + close.length;
    if (!triple && source[i] === '\n') return i;
    i++;
  }
  return i;
}

/** @bufbuild/cel's reserved-word errors, in cel-go's words ("reserved identifier: if"). */
function reservedIssue(source: string, err: unknown): CelIssue | undefined {
  if (!(err instanceof Error)) return undefined;
  const raw = (err as { rawMessage?: unknown }).rawMessage;
  if (raw !== 'reserved identifier' && raw !== 'reserved keyword') return undefined;
  const offset = locationOffset((err as { location?: unknown }).location);
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(offset))?.[0] ?? '';
  // `x.in`, a bare `in`: keywords are tokens for cel-go's lexer, so these are ANTLR mismatches
  if (raw === 'reserved keyword' || word === 'in') return undefined;
  return { message: `reserved identifier: ${word}`, offset };
}

/** Fallback when our recognizer finds nothing: @bufbuild/cel's position, ANTLR-like words. */
function syntaxIssue(err: unknown): CelIssue {
  if (!(err instanceof Error)) return { message: 'Syntax error', offset: 0 };
  const location: unknown = (err as { location?: unknown }).location;
  const offset = locationOffset(location);
  if ('found' in err) {
    const found: unknown = err.found;
    const token = typeof found === 'string' && found !== '' ? found : '<EOF>';
    return { message: `Syntax error: mismatched input '${token}'`, offset };
  }
  if (err.message.includes('surrogate code points')) {
    return { message: 'invalid unicode code point', offset: location === undefined ? 0 : offset };
  }
  return { message: `Syntax error: ${err.message}`, offset: location === undefined ? 0 : offset };
}

function locationOffset(location: unknown): number {
  if (typeof location !== 'object' || location === null) return 0;
  const start: unknown = (location as { start?: unknown }).start;
  if (typeof start !== 'object' || start === null) return 0;
  const offset: unknown = (start as { offset?: unknown }).offset;
  return typeof offset === 'number' ? offset : 0;
}

function position(info: SourceInfo, id: bigint): number {
  return info.positions[id.toString()] ?? NO_LOCATION;
}

const COMPREHENSION_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/**
 * Reports what cel-go's parser rejects and returns the expression's depth (&&/|| chains are
 * balanced by the parser and counted once, as cel-go's visitor sees them as one flat rule).
 */
function validate(expr: Expr, info: SourceInfo, issues: CelIssue[], depth: number): number {
  const kind = expr.exprKind;
  const here = position(info, expr.id);
  const sub = (child: Expr | undefined, extra = 1): number =>
    child === undefined ? depth : validate(child, info, issues, depth + extra);
  switch (kind.case) {
    case 'constExpr': {
      const c = kind.value.constantKind;
      if (c.case === 'int64Value' && (c.value < INT64_MIN || c.value > INT64_MAX)) {
        issues.push({ message: 'invalid int literal', offset: here });
      } else if (c.case === 'uint64Value' && (c.value < 0n || c.value > UINT64_MAX)) {
        issues.push({ message: 'invalid uint literal', offset: here });
      } else if (c.case === 'doubleValue' && !Number.isFinite(c.value)) {
        issues.push({ message: 'invalid double literal', offset: here });
      }
      return depth;
    }
    case 'callExpr': {
      const call = kind.value;
      if (call.target === undefined && call.function === 'has' && call.args.length === 1) {
        const arg = call.args[0]!;
        issues.push({ message: 'invalid argument to has() macro', offset: position(info, arg.id) });
      }
      const macroArity = call.function === 'map' ? [2, 3] : [2];
      if (
        call.target !== undefined &&
        COMPREHENSION_MACROS.has(call.function) &&
        macroArity.includes(call.args.length)
      ) {
        const first = call.args[0];
        const message =
          call.function === 'map' || call.function === 'filter'
            ? 'argument is not an identifier'
            : 'argument must be a simple name';
        issues.push({ message, offset: first ? position(info, first.id) : here });
      }
      const logical = call.function === '_&&_' || call.function === '_||_';
      let max = sub(call.target);
      for (const arg of call.args) max = Math.max(max, sub(arg, logical ? 0 : 1));
      return max;
    }
    case 'selectExpr':
      return sub(kind.value.operand);
    case 'listExpr':
      return Math.max(depth, ...kind.value.elements.map((e) => sub(e)));
    case 'structExpr': {
      let max = depth;
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === 'mapKey') max = Math.max(max, sub(entry.keyKind.value));
        max = Math.max(max, sub(entry.value));
      }
      return max;
    }
    case 'comprehensionExpr': {
      const c = kind.value;
      return Math.max(
        sub(c.iterRange),
        sub(c.accuInit),
        sub(c.loopCondition),
        sub(c.loopStep),
        sub(c.result),
      );
    }
    default:
      return depth;
  }
}
