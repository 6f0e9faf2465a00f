/**
 * Function declarations for the checker, as cel-go v0.12.7's checker/decls (NewFunction,
 * NewOverload, NewInstanceOverload, NewParameterizedOverload): an overload has an id, its
 * parameter types (the receiver first for member overloads), a result type and the names of
 * the type parameters it is generic over.
 */
import type { CheckedType } from './types.js';

export interface OverloadDecl {
  readonly id: string;
  readonly params: readonly CheckedType[];
  readonly result: CheckedType;
  /** Receiver-style (`a.f(b)`); the receiver is params[0]. */
  readonly member: boolean;
  readonly typeParams: readonly string[];
}

export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
}

export function fn(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads };
}

export function globalOverload(
  id: string,
  params: readonly CheckedType[],
  result: CheckedType,
  typeParams: readonly string[] = [],
): OverloadDecl {
  return { id, params, result, member: false, typeParams };
}

export function memberOverload(
  id: string,
  params: readonly CheckedType[],
  result: CheckedType,
  typeParams: readonly string[] = [],
): OverloadDecl {
  return { id, params, result, member: true, typeParams };
}

/** Adds overloads to a function table, merging with overloads already declared under the name. */
export function addFunctions(table: Map<string, FunctionDecl>, decls: readonly FunctionDecl[]): void {
  for (const decl of decls) {
    const existing = table.get(decl.name);
    if (existing === undefined) {
      table.set(decl.name, decl);
      continue;
    }
    const ids = new Set(existing.overloads.map((o) => o.id));
    table.set(decl.name, {
      name: decl.name,
      overloads: [...existing.overloads, ...decl.overloads.filter((o) => !ids.has(o.id))],
    });
  }
}
