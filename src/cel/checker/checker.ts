/**
 * The CEL type checker: cel-go v0.12.7 checker/checker.go over cel-spec's parsed `Expr`
 * (@bufbuild/cel's parser output, macros already expanded into comprehensions). It computes a type
 * for every node, the overloads each call may resolve to, and cel-go's error messages
 * (checker/errors.go) at the offending node's offset. The AST is not rewritten.
 */
import type {
  Constant,
  Expr,
  Expr_Comprehension,
  Expr_CreateStruct_Entry,
  SourceInfo,
} from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { CelIssue } from '../issues.js';
import type { CheckerEnv } from './env.js';
import type { FunctionDecl } from './decls.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DYN,
  ERROR,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  DURATION,
  UINT,
  UNKNOWN,
  type CheckedType,
  formatFunction,
  formatType,
  functionOf,
  isDyn,
  isDynOrError,
  listOf,
  mapOf,
  protoText,
  typeEquals,
  typeParam,
} from './types.js';
import { Substitutions, isAssignable, isAssignableList, mostGeneral, substitute } from './unify.js';

/** What an identifier or call node refers to (cel-spec's Reference). */
export interface CheckedReference {
  /** A variable or type name. */
  readonly name?: string;
  /** Every overload a call may dispatch to. */
  readonly overloadIds?: readonly string[];
}

export interface CheckResult {
  /** The expression's type (type parameters left unbound become dyn). */
  readonly type: CheckedType;
  /** Every node's type by expression id. */
  readonly types: ReadonlyMap<bigint, CheckedType>;
  readonly references: ReadonlyMap<bigint, CheckedReference>;
  readonly issues: readonly CelIssue[];
}

/** Type-checks a parsed expression in an environment. */
export function checkExpr(expr: Expr, sourceInfo: SourceInfo | undefined, env: CheckerEnv): CheckResult {
  const checker = new Checker(env, sourceInfo);
  checker.check(expr);
  const types = checker.finalTypes();
  return {
    type: types.get(expr.id) ?? DYN,
    types,
    references: checker.references,
    issues: checker.issues,
  };
}

class Checker {
  readonly #env: CheckerEnv;
  readonly #positions: Readonly<Record<string, number>>;
  readonly #types = new Map<bigint, CheckedType>();
  readonly references = new Map<bigint, CheckedReference>();
  readonly issues: CelIssue[] = [];
  #mappings = new Substitutions();
  #freeTypeVarCounter = 0;
  /** Comprehension scopes, innermost last. */
  readonly #scopes: Map<string, CheckedType>[] = [];
  /**
   * cel-go v0.12.7's Env.enterScope/exitScope build a new Env without the disabled overload ids,
   * so once the checker has walked into a comprehension, cross-type numeric comparisons type-check
   * for the rest of the expression. Kubernetes v1.27 behaves so; we follow it.
   */
  #crossTypeFilterActive = true;

  constructor(env: CheckerEnv, sourceInfo: SourceInfo | undefined) {
    this.#env = env;
    this.#positions = sourceInfo?.positions ?? {};
  }

  finalTypes(): Map<bigint, CheckedType> {
    const out = new Map<bigint, CheckedType>();
    for (const [id, t] of this.#types) out.set(id, substitute(this.#mappings, t, true));
    return out;
  }

  #report(e: Expr | bigint, message: string): void {
    const id = typeof e === 'bigint' ? e : e.id;
    // A node without a position reports at cel-go's NoLocation (-1).
    this.issues.push({ message, offset: this.#positions[id.toString()] ?? -1 });
  }

  #undeclaredReference(e: Expr, name: string): void {
    this.#report(e, `undeclared reference to '${name}' (in container '')`);
  }

  check(e: Expr | undefined): void {
    if (e === undefined) return;
    const kind = e.exprKind;
    switch (kind.case) {
      case 'constExpr':
        this.#setType(e, constantType(kind.value));
        return;
      case 'identExpr':
        this.#checkIdent(e, kind.value.name);
        return;
      case 'selectExpr':
        this.#checkSelect(e, kind.value.operand, kind.value.field, kind.value.testOnly);
        return;
      case 'callExpr':
        this.#checkCall(e, kind.value.function, kind.value.target, kind.value.args);
        return;
      case 'listExpr':
        this.#checkCreateList(e, kind.value.elements);
        return;
      case 'structExpr':
        if (kind.value.messageName !== '') {
          this.#checkCreateMessage(e, kind.value.messageName, kind.value.entries);
          return;
        }
        this.#checkCreateMap(e, kind.value.entries);
        return;
      case 'comprehensionExpr':
        this.#checkComprehension(e, kind.value);
        return;
      default:
        this.#report(e, 'Unrecognized ast type: <nil>');
    }
  }

  #lookupIdent(name: string): { name: string; type: CheckedType } | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const t = this.#scopes[i]?.get(name);
      if (t !== undefined) return { name, type: t };
    }
    return this.#env.lookupIdent(name);
  }

  #checkIdent(e: Expr, name: string): void {
    const ident = this.#lookupIdent(name);
    if (ident !== undefined) {
      this.#setType(e, ident.type);
      this.references.set(e.id, { name: ident.name });
      return;
    }
    this.#setType(e, ERROR);
    this.#undeclaredReference(e, name);
  }

  #checkSelect(e: Expr, operand: Expr | undefined, field: string, testOnly: boolean): void {
    // A select chain may name a qualified identifier (`a.b.c` declared as one variable).
    const qualified = qualifiedName(e);
    if (qualified !== undefined) {
      const ident = this.#lookupIdent(qualified);
      if (ident !== undefined) {
        this.#setType(e, ident.type);
        this.references.set(e.id, { name: ident.name });
        return;
      }
    }
    this.check(operand);
    const targetType = substitute(this.#mappings, this.#getType(operand), false);
    let resultType: CheckedType = ERROR;
    switch (targetType.kind) {
      case 'map':
        resultType = targetType.value;
        break;
      case 'object': {
        const fieldType = this.#lookupFieldType(e, targetType.name, field);
        if (fieldType !== undefined) resultType = fieldType;
        break;
      }
      case 'typeParam':
        this.#isAssignable(DYN, targetType);
        resultType = DYN;
        break;
      default:
        if (isDynOrError(targetType)) resultType = DYN;
        else this.#report(e, `type '${protoText(targetType)}' does not support field selection`);
    }
    if (testOnly) resultType = BOOL;
    this.#setType(e, substitute(this.#mappings, resultType, false));
  }

  #lookupFieldType(e: Expr | bigint, typeName: string, field: string): CheckedType | undefined {
    if (this.#env.types.findType(typeName) === undefined) {
      this.#report(e, `[internal] unexpected failed resolution of '${typeName}'`);
      return undefined;
    }
    const fieldType = this.#env.types.findFieldType(typeName, field);
    if (fieldType === undefined) this.#report(e, `undefined field '${field}'`);
    return fieldType;
  }

  #checkCall(e: Expr, fnName: string, target: Expr | undefined, args: readonly Expr[]): void {
    for (const arg of args) this.check(arg);
    if (target === undefined) {
      const fn = this.#env.lookupFunction(fnName);
      if (fn === undefined) {
        this.#undeclaredReference(e, fnName);
        this.#setType(e, ERROR);
        return;
      }
      this.#resolveOverloadOrError(e, fn, undefined, args);
      return;
    }
    // `a.b.f()` may name a namespaced function `a.b.f`.
    const prefix = qualifiedName(target);
    if (prefix !== undefined) {
      const fn = this.#env.lookupFunction(`${prefix}.${fnName}`);
      if (fn !== undefined) {
        this.#resolveOverloadOrError(e, fn, undefined, args);
        return;
      }
    }
    this.check(target);
    const fn = this.#env.lookupFunction(fnName);
    if (fn !== undefined) {
      this.#resolveOverloadOrError(e, fn, target, args);
      return;
    }
    // As cel-go: the error is recorded but the node keeps no type.
    this.#undeclaredReference(e, fnName);
  }

  #resolveOverloadOrError(e: Expr, fn: FunctionDecl, target: Expr | undefined, args: readonly Expr[]): void {
    const argTypes: CheckedType[] = [];
    if (target !== undefined) argTypes.push(this.#getType(target));
    for (const arg of args) argTypes.push(this.#getType(arg));

    let resultType: CheckedType | undefined;
    const overloadIds: string[] = [];
    for (const overload of fn.overloads) {
      if (this.#crossTypeFilterActive && this.#env.disabledOverloads.has(overload.id)) continue;
      if ((target === undefined) === overload.member) continue;
      let overloadType = functionOf(overload.result, overload.params);
      if (overload.typeParams.length > 0) {
        const fresh = new Substitutions();
        for (const p of overload.typeParams) fresh.add(typeParam(p), this.#newTypeVar());
        overloadType = substitute(fresh, overloadType, false);
      }
      if (overloadType.kind !== 'function') continue;
      if (!this.#isAssignableList(argTypes, overloadType.args)) continue;
      overloadIds.push(overload.id);
      const fnResultType = substitute(this.#mappings, overloadType.result, false);
      if (resultType === undefined) resultType = fnResultType;
      else if (!isDyn(resultType) && !typeEquals(fnResultType, resultType)) resultType = DYN;
    }
    if (resultType === undefined) {
      this.#report(
        e,
        `found no matching overload for '${fn.name}' applied to '${formatFunction(undefined, argTypes, target !== undefined)}'`,
      );
      this.#setType(e, ERROR);
      return;
    }
    this.#setType(e, resultType);
    this.references.set(e.id, { overloadIds });
  }

  #checkCreateList(e: Expr, elements: readonly Expr[]): void {
    let elemType: CheckedType | undefined;
    for (const element of elements) {
      this.check(element);
      elemType = this.#joinTypes(element, elemType, this.#getType(element));
    }
    this.#setType(e, listOf(elemType ?? this.#newTypeVar()));
  }

  #checkCreateMap(e: Expr, entries: readonly Expr_CreateStruct_Entry[]): void {
    let keyType: CheckedType | undefined;
    let valueType: CheckedType | undefined;
    for (const entry of entries) {
      if (entry.keyKind.case === 'mapKey') {
        const key = entry.keyKind.value;
        this.check(key);
        keyType = this.#joinTypes(key, keyType, this.#getType(key));
      }
      this.check(entry.value);
      if (entry.value !== undefined) {
        valueType = this.#joinTypes(entry.value, valueType, this.#getType(entry.value));
      }
    }
    if (keyType === undefined || valueType === undefined) {
      keyType = this.#newTypeVar();
      valueType = this.#newTypeVar();
    }
    this.#setType(e, mapOf(keyType, valueType));
  }

  /** `T{f: v}`: Kubernetes declares no constructible messages, so this mostly reports errors. */
  #checkCreateMessage(e: Expr, messageName: string, entries: readonly Expr_CreateStruct_Entry[]): void {
    const decl = this.#env.lookupIdent(messageName);
    if (decl === undefined) {
      this.#undeclaredReference(e, messageName);
      return;
    }
    this.references.set(e.id, { name: decl.name });
    let messageType: CheckedType = ERROR;
    if (decl.type.kind !== 'error') {
      if (decl.type.kind !== 'type') {
        this.#report(e, `'${formatType(decl.type)}(${protoText(decl.type)})' is not a type`);
      } else if (decl.type.type?.kind !== 'object') {
        this.#report(
          e,
          `'${decl.type.type === undefined ? 'type' : formatType(decl.type.type)}' is not a message type`,
        );
      } else {
        messageType = decl.type.type;
      }
    }
    this.#setType(e, messageType);
    for (const entry of entries) {
      this.check(entry.value);
      if (entry.keyKind.case !== 'fieldKey') continue;
      const field = entry.keyKind.value;
      let fieldType: CheckedType = ERROR;
      if (messageType.kind === 'object') {
        fieldType = this.#lookupFieldType(entry.id, messageType.name, field) ?? ERROR;
      }
      const valueType = this.#getType(entry.value);
      if (!this.#isAssignable(fieldType, valueType)) {
        this.#report(
          entry.id,
          `expected type of field '${field}' is '${formatType(fieldType)}' but provided type is '${formatType(valueType)}'`,
        );
      }
    }
  }

  #checkComprehension(e: Expr, comp: Expr_Comprehension): void {
    this.check(comp.iterRange);
    this.check(comp.accuInit);
    const accuType = this.#getType(comp.accuInit);
    const rangeType = substitute(this.#mappings, this.#getType(comp.iterRange), false);
    let varType: CheckedType;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.elem;
        break;
      case 'map':
        varType = rangeType.key;
        break;
      case 'dyn':
      case 'error':
      case 'typeParam':
        this.#isAssignable(DYN, rangeType);
        varType = DYN;
        break;
      default:
        if (comp.iterRange !== undefined) {
          this.#report(
            comp.iterRange,
            `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
          );
        }
        varType = ERROR;
    }
    this.#crossTypeFilterActive = false;
    this.#scopes.push(new Map([[comp.accuVar, accuType]]));
    this.#scopes.push(new Map([[comp.iterVar, varType]]));
    this.check(comp.loopCondition);
    this.#assertType(comp.loopCondition, BOOL);
    this.check(comp.loopStep);
    this.#assertType(comp.loopStep, accuType);
    this.#scopes.pop();
    this.check(comp.result);
    this.#scopes.pop();
    this.#setType(e, substitute(this.#mappings, this.#getType(comp.result), false));
  }

  /** The most general type of two aggregate literal elements, or an error when they disagree. */
  #joinTypes(at: Expr, previous: CheckedType | undefined, current: CheckedType): CheckedType {
    if (previous === undefined) return current;
    if (this.#isAssignable(previous, current)) return mostGeneral(previous, current);
    if (!this.#env.homogeneousAggregateLiterals) return DYN;
    this.#typeMismatch(at, previous, current);
    return ERROR;
  }

  #typeMismatch(at: Expr, expected: CheckedType, actual: CheckedType): void {
    this.#report(at, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }

  #assertType(e: Expr | undefined, t: CheckedType): void {
    if (e === undefined) return;
    const actual = this.#getType(e);
    if (!this.#isAssignable(t, actual)) this.#typeMismatch(e, t, actual);
  }

  #newTypeVar(): CheckedType {
    return typeParam(`_var${this.#freeTypeVarCounter++}`);
  }

  #isAssignable(t1: CheckedType, t2: CheckedType): boolean {
    const subs = isAssignable(this.#mappings, t1, t2);
    if (subs === undefined) return false;
    this.#mappings = subs;
    return true;
  }

  #isAssignableList(l1: readonly CheckedType[], l2: readonly CheckedType[]): boolean {
    const subs = isAssignableList(this.#mappings, l1, l2);
    if (subs === undefined) return false;
    this.#mappings = subs;
    return true;
  }

  #setType(e: Expr, t: CheckedType): void {
    this.#types.set(e.id, t);
  }

  /** A node's type; nodes left untyped (a failed member call) read as cel-go's nil type. */
  #getType(e: Expr | undefined): CheckedType {
    return (e === undefined ? undefined : this.#types.get(e.id)) ?? UNKNOWN;
  }
}

function constantType(c: Constant): CheckedType {
  switch (c.constantKind.case) {
    case 'boolValue':
      return BOOL;
    case 'bytesValue':
      return BYTES;
    case 'doubleValue':
      return DOUBLE;
    case 'int64Value':
      return INT;
    case 'nullValue':
      return NULL;
    case 'stringValue':
      return STRING;
    case 'uint64Value':
      return UINT;
    case 'durationValue':
      return DURATION;
    case 'timestampValue':
      return TIMESTAMP;
    default:
      return ERROR;
  }
}

/** `a.b.c` as a qualified name when the expression is a chain of selects over an identifier. */
function qualifiedName(e: Expr): string | undefined {
  const kind = e.exprKind;
  if (kind.case === 'identExpr') return kind.value.name;
  if (kind.case === 'selectExpr') {
    if (kind.value.testOnly || kind.value.operand === undefined) return undefined;
    const prefix = qualifiedName(kind.value.operand);
    return prefix === undefined ? undefined : `${prefix}.${kind.value.field}`;
  }
  return undefined;
}
