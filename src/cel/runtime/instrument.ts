// Cost instrumentation by AST rewrite. @bufbuild/cel has no evaluation hooks, so before planning
// we rewrite the expression so that the steps cel-go v0.12.7's CostObserver
// (interpreter/runtimecost.go) charges become calls of our own functions:
//
// - an attribute (an identifier, or a chain of selects and indexes on one) is wrapped as
//   `@cost:N(chain)`, N = 1 for the attribute plus 1 per qualifier; a chain on a non-attribute
//   operand (`f(x).y`) pays 1 for the relative attribute cel-go plans; a ternary branch that is
//   not itself an attribute pays 1 the same way (planConditional's relativeAttr);
// - a list, map or message literal is wrapped as `@cost:10|30|40(...)`;
// - every function call F is renamed `@call:F` and dispatched by our wrapper, which charges
//   callCost(F, args, result) (cost.ts) and then calls the real overload;
// - `&&`, `||`, `?:`, @not_strictly_false, comprehensions and constants cost nothing themselves.
//
// With `optimize` (cel.OptOptimize, which Kubernetes' CRD validation uses) constant list and map
// literals and type conversions of constants are folded at plan time and cost nothing, and
// `x in [constants]` becomes a set membership test that costs nothing beyond `x`.
import { create } from '@bufbuild/protobuf';
import { NullValue } from '@bufbuild/protobuf/wkt';
import { ExprSchema, type Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import {
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  SELECT_AND_IDENT_COST,
  STRUCT_CREATE_BASE_COST,
} from './cost.js';

/** `@charge:N()` adds N before what follows is evaluated (so failures are charged too). */
export const CHARGE_FUNCTION_PREFIX = '@charge:';
/** `@pass(charge, value)` is `value`. */
export const PASS_FUNCTION = '@pass';
/** `@maplit(charge, map)` is `map`, checked for numerically repeated keys. */
export const MAP_LITERAL_FUNCTION = '@maplit';
export const CALL_FUNCTION_PREFIX = '@call:';
/** A call whose cost cel-go's optimizer removed (folded or turned into a set test). */
export const FREE_CALL_FUNCTION_PREFIX = '@call0:';

/** Calls @bufbuild/cel plans itself (no function dispatch): left as they are. */
const PLANNER_CALLS = new Set([
  '_[_]',
  '_?_:_',
  '_&&_',
  '_||_',
  '@not_strictly_false',
  '__not_strictly_false__',
  '_[?_]',
  '_?._',
]);

/** overloads.IsTypeConversionFunction. */
const CONVERSIONS = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'string',
  'timestamp',
  'type',
  'uint',
]);

/** Identifiers a checked expression resolves to type constants (no attribute cost). */
const TYPE_IDENTS = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'timestamp',
  'type',
  'uint',
]);

/** A wrapper function the instrumented expression calls. */
export interface WrapperUse {
  readonly name: string;
  readonly arity: number;
  readonly member: boolean;
}

export interface Instrumented {
  readonly expr: Expr;
  readonly wrappers: readonly WrapperUse[];
}

interface Visited {
  readonly expr: Expr;
  /** A constant after cel-go's optimizer (only tracked with `optimize`). */
  readonly konst: boolean;
}

/** `a.b.c` of an identifier/select chain, or undefined. */
function qualifiedName(e: Expr): string | undefined {
  const kind = e.exprKind;
  if (kind.case === 'identExpr') return kind.value.name;
  if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand) {
    const operand = qualifiedName(kind.value.operand);
    return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
  }
  return undefined;
}

class Rewriter {
  #nextId: bigint;
  readonly #optimize: boolean;
  readonly #isFunction: (name: string) => boolean;
  readonly wrappers = new Map<string, WrapperUse>();

  constructor(maxId: bigint, optimize: boolean, isFunction: (name: string) => boolean) {
    this.#nextId = maxId + 1n;
    this.#optimize = optimize;
    this.#isFunction = isFunction;
  }

  #use(name: string, arity: number, member: boolean): void {
    this.wrappers.set(`${name}/${arity}/${member}`, { name, arity, member });
  }

  #charge(cost: number): Expr {
    const name = `${CHARGE_FUNCTION_PREFIX}${cost}`;
    this.#use(name, 0, false);
    return create(ExprSchema, {
      id: this.#nextId++,
      exprKind: { case: 'callExpr', value: { function: name, args: [] } },
    });
  }

  /**
   * `@pass(@charge:N(), expr)`: cel-go observes a step even when it yields an error, so the
   * charge comes first and stands whether or not `expr` fails.
   */
  #wrap(expr: Expr, cost: number): Expr {
    if (cost === 0) return expr;
    this.#use(PASS_FUNCTION, 2, false);
    return create(ExprSchema, {
      id: this.#nextId++,
      exprKind: { case: 'callExpr', value: { function: PASS_FUNCTION, args: [this.#charge(cost), expr] } },
    });
  }

  visit(e: Expr): Visited {
    const kind = e.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return { expr: e, konst: true };
      case 'identExpr':
        if (TYPE_IDENTS.has(kind.value.name)) return { expr: e, konst: true };
        return { expr: this.#wrap(e, SELECT_AND_IDENT_COST), konst: false };
      case 'selectExpr':
        if (kind.value.testOnly) {
          const operand = kind.value.operand && this.visit(kind.value.operand).expr;
          return {
            expr: create(ExprSchema, {
              id: e.id,
              exprKind: { case: 'selectExpr', value: { ...kind.value, operand } },
            }),
            konst: false,
          };
        }
        return { expr: this.#chain(e), konst: false };
      case 'callExpr':
        return this.#call(e);
      case 'listExpr': {
        const elems = kind.value.elements.map((x) => this.visit(x));
        const konst = this.#optimize && elems.every((x) => x.konst);
        const expr = create(ExprSchema, {
          id: e.id,
          exprKind: {
            case: 'listExpr',
            value: { ...kind.value, elements: elems.map((x) => x.expr) },
          },
        });
        return { expr: konst ? expr : this.#wrap(expr, LIST_CREATE_BASE_COST), konst };
      }
      case 'structExpr': {
        let konst = this.#optimize && kind.value.messageName === '';
        const entries = kind.value.entries.map((entry) => {
          const keyKind =
            entry.keyKind.case === 'mapKey'
              ? (() => {
                  const k = this.visit(entry.keyKind.value);
                  konst &&= k.konst;
                  return { case: 'mapKey' as const, value: k.expr };
                })()
              : entry.keyKind;
          const v = entry.value && this.visit(entry.value);
          konst &&= v?.konst ?? false;
          return { ...entry, keyKind, value: v?.expr };
        });
        const expr = create(ExprSchema, {
          id: e.id,
          exprKind: { case: 'structExpr', value: { ...kind.value, entries } },
        });
        if (kind.value.messageName !== '') {
          return { expr: this.#wrap(expr, STRUCT_CREATE_BASE_COST), konst: false };
        }
        // map literals also go through `@maplit(charge, map)`, which rejects keys that are
        // equal across numeric types ({0: 1, 0u: 2}), as CEL requires
        this.#use(MAP_LITERAL_FUNCTION, 2, false);
        const charge: Expr = konst
          ? create(ExprSchema, {
              id: this.#nextId++,
              exprKind: {
                case: 'constExpr',
                value: { constantKind: { case: 'nullValue', value: NullValue.NULL_VALUE } },
              },
            })
          : this.#charge(MAP_CREATE_BASE_COST);
        return {
          expr: create(ExprSchema, {
            id: this.#nextId++,
            exprKind: { case: 'callExpr', value: { function: MAP_LITERAL_FUNCTION, args: [charge, expr] } },
          }),
          konst,
        };
      }
      case 'comprehensionExpr': {
        const c = kind.value;
        const sub = (x: Expr | undefined): Expr | undefined => x && this.visit(x).expr;
        return {
          expr: create(ExprSchema, {
            id: e.id,
            exprKind: {
              case: 'comprehensionExpr',
              value: {
                ...c,
                iterRange: sub(c.iterRange),
                accuInit: sub(c.accuInit),
                loopCondition: sub(c.loopCondition),
                loopStep: sub(c.loopStep),
                result: sub(c.result),
              },
            },
          }),
          konst: false,
        };
      }
      default:
        return { expr: e, konst: false };
    }
  }

  /** Whether cel-go plans `e` as an attribute (no relative attribute needed over it). */
  #isAttribute(e: Expr): boolean {
    const kind = e.exprKind;
    if (kind.case === 'identExpr') return !TYPE_IDENTS.has(kind.value.name);
    if (kind.case === 'selectExpr') return !kind.value.testOnly;
    if (kind.case === 'callExpr') {
      return (
        kind.value.target === undefined &&
        (kind.value.function === '_[_]' || kind.value.function === '_?_:_') &&
        kind.value.args.length === (kind.value.function === '_[_]' ? 2 : 3)
      );
    }
    return false;
  }

  /** A select/index chain: rebuilt with instrumented indexes, wrapped with its attribute cost. */
  #chain(top: Expr): Expr {
    const qualifiers: Expr[] = [];
    let root = top;
    for (;;) {
      const kind = root.exprKind;
      if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand) {
        qualifiers.push(root);
        root = kind.value.operand;
        continue;
      }
      if (
        kind.case === 'callExpr' &&
        kind.value.function === '_[_]' &&
        kind.value.target === undefined &&
        kind.value.args.length === 2
      ) {
        qualifiers.push(root);
        root = kind.value.args[0]!;
        continue;
      }
      break;
    }
    let base: number;
    let rebuilt: Expr;
    const rk = root.exprKind;
    if (rk.case === 'identExpr') {
      base = SELECT_AND_IDENT_COST;
      rebuilt = root;
    } else if (rk.case === 'callExpr' && rk.value.function === '_?_:_' && rk.value.target === undefined) {
      base = 0;
      rebuilt = this.#call(root).expr;
    } else {
      base = SELECT_AND_IDENT_COST;
      rebuilt = this.visit(root).expr;
    }
    for (let i = qualifiers.length - 1; i >= 0; i--) {
      const q = qualifiers[i]!;
      const k = q.exprKind;
      if (k.case === 'selectExpr') {
        rebuilt = create(ExprSchema, {
          id: q.id,
          exprKind: { case: 'selectExpr', value: { ...k.value, operand: rebuilt } },
        });
      } else if (k.case === 'callExpr') {
        const index = this.visit(k.value.args[1]!).expr;
        rebuilt = create(ExprSchema, {
          id: q.id,
          exprKind: { case: 'callExpr', value: { ...k.value, args: [rebuilt, index] } },
        });
      }
    }
    return this.#wrap(rebuilt, base + qualifiers.length);
  }

  #call(e: Expr): Visited {
    if (e.exprKind.case !== 'callExpr') return this.visit(e);
    const call = e.exprKind.value;
    const fn = call.function;
    if (fn === '_[_]' && call.target === undefined && call.args.length === 2) {
      return { expr: this.#chain(e), konst: false };
    }
    if (fn === '_?_:_' && call.target === undefined && call.args.length === 3) {
      const [c, t, f] = call.args as [Expr, Expr, Expr];
      const branch = (b: Expr): Expr => {
        const v = this.visit(b).expr;
        return this.#isAttribute(b) ? v : this.#wrap(v, SELECT_AND_IDENT_COST);
      };
      return {
        expr: create(ExprSchema, {
          id: e.id,
          exprKind: {
            case: 'callExpr',
            value: { ...call, args: [this.visit(c).expr, branch(t), branch(f)] },
          },
        }),
        konst: false,
      };
    }
    const args = call.args.map((a) => this.visit(a));
    // `strings.quote(x)`: a namespaced global function, not a method on `strings`.
    const qualified = call.target && qualifiedName(call.target);
    if (qualified !== undefined && this.#isFunction(`${qualified}.${fn}`)) {
      const name = `${CALL_FUNCTION_PREFIX}${qualified}.${fn}`;
      this.#use(name, args.length + 1, false);
      const withCharge = [this.#charge(1), ...args.map((a) => a.expr)];
      return {
        expr: create(ExprSchema, {
          id: e.id,
          exprKind: { case: 'callExpr', value: { function: name, args: withCharge } },
        }),
        konst: false,
      };
    }
    const target = call.target && this.visit(call.target);
    if (PLANNER_CALLS.has(fn)) {
      const planned = create(ExprSchema, {
        id: e.id,
        exprKind: {
          case: 'callExpr',
          value: { ...call, target: target?.expr, args: args.map((a) => a.expr) },
        },
      });
      // @not_strictly_false is an ordinary function call for cel-go (cost 1); @bufbuild/cel
      // plans it itself, so it is charged by a wrapper.
      const notStrictlyFalse = fn === '@not_strictly_false' || fn === '__not_strictly_false__';
      return { expr: notStrictlyFalse ? this.#wrap(planned, 1) : planned, konst: false };
    }
    const folded =
      this.#optimize && target === undefined && CONVERSIONS.has(fn) && args.length === 1 && args[0]!.konst;
    const setTest =
      this.#optimize &&
      fn === '@in' &&
      args.length === 2 &&
      args[1]!.konst &&
      call.args[1]!.exprKind.case === 'listExpr';
    const free = folded || setTest;
    const name = `${free ? FREE_CALL_FUNCTION_PREFIX : CALL_FUNCTION_PREFIX}${fn}`;
    // A charged call gets a leading `@charge:1()` argument: cel-go charges a call whose
    // arguments failed (its default 1); the wrapper charges the rest of the call's cost.
    const callArgs = free ? args.map((a) => a.expr) : [this.#charge(1), ...args.map((a) => a.expr)];
    this.#use(name, callArgs.length, target !== undefined);
    return {
      expr: create(ExprSchema, {
        id: e.id,
        exprKind: {
          case: 'callExpr',
          value: { function: name, target: target?.expr, args: callArgs },
        },
      }),
      konst: folded,
    };
  }
}

function maxId(e: Expr | undefined): bigint {
  if (e === undefined) return 0n;
  let max = e.id;
  const kind = e.exprKind;
  const take = (x: Expr | undefined): void => {
    const m = maxId(x);
    if (m > max) max = m;
  };
  switch (kind.case) {
    case 'selectExpr':
      take(kind.value.operand);
      break;
    case 'callExpr':
      take(kind.value.target);
      kind.value.args.forEach(take);
      break;
    case 'listExpr':
      kind.value.elements.forEach(take);
      break;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        if (entry.id > max) max = entry.id;
        if (entry.keyKind.case === 'mapKey') take(entry.keyKind.value);
        take(entry.value);
      }
      break;
    case 'comprehensionExpr':
      take(kind.value.iterRange);
      take(kind.value.accuInit);
      take(kind.value.loopCondition);
      take(kind.value.loopStep);
      take(kind.value.result);
      break;
    default:
      break;
  }
  return max;
}

/** Rewrites `expr` for cost tracking (the input is not modified). */
export function instrument(
  expr: Expr,
  options: { optimize: boolean; isFunction: (name: string) => boolean },
): Instrumented {
  const rewriter = new Rewriter(maxId(expr), options.optimize, options.isFunction);
  const out = rewriter.visit(expr);
  return { expr: out.expr, wrappers: [...rewriter.wrappers.values()] };
}
