// Expression positions as cel-go v0.12.7's parser records them (parser/parser.go: an operator
// call at its operator token, `a[i]` at '[', `c ? a : b` at '?', a function call at its '(',
// a message literal at '{', a macro's comprehension at its call's '('). @bufbuild/cel records operators where the left operand ends and
// calls at their name; the checker reports errors at these positions, so we move them.
import type { Expr, SourceInfo } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { lex } from './syntax.js';

const OPERATOR_TOKENS: Readonly<Record<string, string>> = {
  '_==_': '==',
  '_!=_': '!=',
  '_<_': '<',
  '_<=_': '<=',
  '_>_': '>',
  '_>=_': '>=',
  '_+_': '+',
  '_-_': '-',
  '_*_': '*',
  '_/_': '/',
  '_%_': '%',
  '@in': 'in',
  '_&&_': '&&',
  '_||_': '||',
  '_?_:_': '?',
  '_[_]': '[',
};

const UNARY = new Set(['!_', '-_']);

interface Tok {
  readonly text: string;
  readonly offset: number;
}

function children(e: Expr): Expr[] {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      return k.value.operand ? [k.value.operand] : [];
    case 'callExpr':
      return [...(k.value.target ? [k.value.target] : []), ...k.value.args];
    case 'listExpr':
      return k.value.elements;
    case 'structExpr':
      return k.value.entries.flatMap((entry) => [
        ...(entry.keyKind.case === 'mapKey' ? [entry.keyKind.value] : []),
        ...(entry.value ? [entry.value] : []),
      ]);
    case 'comprehensionExpr':
      return [
        k.value.iterRange,
        k.value.accuInit,
        k.value.loopCondition,
        k.value.loopStep,
        k.value.result,
      ].filter((x): x is Expr => x !== undefined);
    default:
      return [];
  }
}

/** Moves operator, index, ternary, call and message positions to cel-go's tokens. */
export function alignPositions(source: string, expr: Expr, info: SourceInfo): void {
  const tokens: Tok[] = lex(source).tokens.filter((t) => t.kind !== 'EOF');
  const original = new Map(Object.entries(info.positions));
  const pos = (e: Expr): number => original.get(e.id.toString()) ?? -1;
  const starts = new Map<Expr, number>();
  const start = (e: Expr): number => {
    let s = starts.get(e);
    if (s !== undefined) return s;
    s = pos(e);
    for (const c of children(e)) {
      const cs = start(c);
      if (cs >= 0 && (s < 0 || cs < s)) s = cs;
    }
    starts.set(e, s);
    return s;
  };
  const lastBefore = (text: string, before: number): number | undefined => {
    let found: number | undefined;
    for (const t of tokens) {
      if (t.offset >= before) break;
      if (t.text === text) found = t.offset;
    }
    return found;
  };
  const firstFrom = (text: string, from: number): number | undefined =>
    tokens.find((t) => t.offset >= from && t.text === text)?.offset;

  const visit = (e: Expr): void => {
    const k = e.exprKind;
    const id = e.id.toString();
    if (k.case === 'callExpr') {
      const fn = k.value.function;
      const op = OPERATOR_TOKENS[fn];
      const right = k.value.args[1];
      if (op !== undefined && k.value.target === undefined && right !== undefined) {
        const at = lastBefore(op, start(right));
        if (at !== undefined) info.positions[id] = at;
      } else if (!UNARY.has(fn) && op === undefined && pos(e) >= 0) {
        const at = firstFrom('(', pos(e));
        if (at !== undefined) info.positions[id] = at;
      }
    } else if (k.case === 'comprehensionExpr' && pos(e) >= 0) {
      // a macro's expansion sits at the macro call's '('
      const at = firstFrom('(', pos(e));
      if (at !== undefined) info.positions[id] = at;
    } else if (k.case === 'structExpr' && k.value.messageName !== '' && pos(e) >= 0) {
      const at = firstFrom('{', pos(e));
      if (at !== undefined) info.positions[id] = at;
    }
    for (const c of children(e)) visit(c);
  };
  visit(expr);
}
