// CEL compile issues and their display text, following cel-go v0.12.7 common/errors.go and
// common/error.go (ToDisplayString): "ERROR: <input>:L:C: msg", the source line, and a caret
// line of dots where every multi-byte (non-ASCII) rune before the caret is a full-width dot.

/** One problem found while parsing or checking a CEL expression. */
export interface CelIssue {
  readonly message: string;
  /**
   * 0-based offset into the source as a JavaScript string index (UTF-16 code units, what
   * @bufbuild/cel's SourceInfo.positions hold). Display converts it to cel-go's line (1-based)
   * and rune column. A negative offset is cel-go's NoLocation, shown as "<input>:-1:0" without
   * a snippet.
   */
  readonly offset: number;
}

/** cel-go reports at most this many errors and then "N more errors were truncated". */
const MAX_ERRORS_TO_REPORT = 100;
/** cel-go's maxSnippetLength: longer source lines are not shown. */
const MAX_SNIPPET_LENGTH = 16384;
/** golang.org/x/text/width Widen of "." and "^". */
const WIDE_DOT = '\uFF0E';
const WIDE_CARET = '\uFF3E';

/** Line (1-based) and column (0-based, in code points) of a UTF-16 offset, as cel-go's Location. */
export function issueLocation(source: string, offset: number): { line: number; column: number } {
  if (offset < 0) return { line: -1, column: -1 };
  const clamped = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (source.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: Array.from(source.slice(lineStart, clamped)).length };
}

function lineSnippet(source: string, line: number): string | undefined {
  const lines = source.split('\n');
  return lines[line - 1];
}

function utf8Length(rune: string): number {
  return Buffer.byteLength(rune, 'utf8');
}

function displayOne(
  source: string,
  issue: CelIssue,
  description: string,
  where: { line: number; column: number },
): string {
  let result = `ERROR: ${description}:${where.line}:${where.column + 1}: ${issue.message}`;
  const raw = lineSnippet(source, where.line);
  if (raw === undefined || utf8Length(raw) > MAX_SNIPPET_LENGTH) return result;
  const snippet = raw.replaceAll('\t', ' ');
  const runes = Array.from(snippet);
  let caret = '\n | ';
  for (let i = 0; i < where.column && i < runes.length; i++) {
    caret += utf8Length(runes[i]!) > 1 ? WIDE_DOT : '.';
  }
  const at = runes[where.column];
  caret += at !== undefined && utf8Length(at) > 1 ? WIDE_CARET : '^';
  result += `\n | ${snippet}${caret}`;
  return result;
}

/**
 * cel-go's Errors.ToDisplayString: issues sorted (stably) by line then column, each rendered
 * with its source snippet, joined with "\n".
 */
export function formatIssues(source: string, issues: readonly CelIssue[], description = '<input>'): string {
  const located = issues.map((issue) => ({ issue, where: issueLocation(source, issue.offset) }));
  located.sort((a, b) => a.where.line - b.where.line || a.where.column - b.where.column);
  const shown = located
    .slice(0, MAX_ERRORS_TO_REPORT)
    .map(({ issue, where }) => displayOne(source, issue, description, where));
  if (located.length > MAX_ERRORS_TO_REPORT) {
    shown.push(`${located.length - MAX_ERRORS_TO_REPORT} more errors were truncated`);
  }
  return shown.join('\n');
}

/** A CEL expression failed to parse or type-check; `message` is the cel-go display string. */
export class CelCompileError extends Error {
  override readonly name = 'CelCompileError';
  readonly issues: readonly CelIssue[];
  readonly source: string;

  constructor(source: string, issues: readonly CelIssue[], description = '<input>') {
    super(formatIssues(source, issues, description));
    this.source = source;
    this.issues = issues;
  }
}
