/**
 * Type unification as cel-go v0.12.7's checker/types.go and checker/mapping.go: assignability
 * with type-parameter substitutions, the "occurs check", substitution and the more general of
 * two types. A Substitutions value is copied before each attempt so a failed match leaves the
 * caller's bindings untouched (cel-go's isAssignable/isAssignableList).
 */
import {
  DYN,
  type CheckedType,
  formatType,
  isDyn,
  isDynOrError,
  typeEquals,
  listOf,
  mapOf,
  typeOf,
  functionOf,
} from './types.js';

/** Type-parameter bindings keyed by the formatted parameter (cel-go's typeKey). */
export class Substitutions {
  readonly #map: Map<string, CheckedType>;

  constructor(from?: Substitutions) {
    this.#map = new Map<string, CheckedType>(from === undefined ? [] : from.#map);
  }

  add(from: CheckedType, to: CheckedType): void {
    this.#map.set(formatType(from), to);
  }

  find(from: CheckedType): CheckedType | undefined {
    return this.#map.get(formatType(from));
  }

  copy(): Substitutions {
    return new Substitutions(this);
  }
}

/** Whether t1 is equal to or less specific than t2 (DYN and type parameters are least specific). */
function isEqualOrLessSpecific(t1: CheckedType, t2: CheckedType): boolean {
  if (isDyn(t1) || t1.kind === 'typeParam') return true;
  if (isDyn(t2) || t2.kind === 'typeParam') return false;
  if (t1.kind !== t2.kind) return false;
  if (t1.kind === 'list' && t2.kind === 'list') return isEqualOrLessSpecific(t1.elem, t2.elem);
  if (t1.kind === 'map' && t2.kind === 'map') {
    return isEqualOrLessSpecific(t1.key, t2.key) && isEqualOrLessSpecific(t1.value, t2.value);
  }
  if (t1.kind === 'type') return true;
  return typeEquals(t1, t2);
}

export function mostGeneral(t1: CheckedType, t2: CheckedType): CheckedType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

/** The occurs check: t does not appear (through bindings) within withinType. */
function notReferencedIn(m: Substitutions, t: CheckedType, withinType: CheckedType): boolean {
  if (typeEquals(t, withinType)) return false;
  switch (withinType.kind) {
    case 'typeParam': {
      const sub = m.find(withinType);
      return sub === undefined ? true : notReferencedIn(m, t, sub);
    }
    case 'list':
      return notReferencedIn(m, t, withinType.elem);
    case 'map':
      return notReferencedIn(m, t, withinType.key) && notReferencedIn(m, t, withinType.value);
    case 'type':
      // cel-go v0.12.7 does not look inside type(T) and can bind `A` to `type(A)`, then recurse
      // forever; later cel-go releases look inside, and so do we.
      return withinType.type === undefined || notReferencedIn(m, t, withinType.type);
    default:
      return true;
  }
}

/** Whether t2 (or its binding) may stand for t1; records the binding when it may. */
function isValidTypeSubstitution(
  m: Substitutions,
  t1: CheckedType,
  t2: CheckedType,
): { valid: boolean; hasSub: boolean } {
  if (t1.kind === t2.kind && typeEquals(t1, t2)) return { valid: true, hasSub: true };
  const t2Sub = m.find(t2);
  if (t2Sub !== undefined) {
    if (t1.kind === t2Sub.kind && typeEquals(t1, t2Sub)) return { valid: true, hasSub: true };
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return { valid: true, hasSub: true };
    }
    return { valid: false, hasSub: true };
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return { valid: true, hasSub: false };
  }
  return { valid: false, hasSub: false };
}

function internalIsAssignableList(
  m: Substitutions,
  l1: readonly CheckedType[],
  l2: readonly CheckedType[],
): boolean {
  if (l1.length !== l2.length) return false;
  return l1.every((t, i) => internalIsAssignable(m, t, l2[i] as CheckedType));
}

function isNullable(t: CheckedType): boolean {
  return t.kind === 'object' || t.kind === 'null' || t.kind === 'wellKnown';
}

function internalIsAssignable(m: Substitutions, t1: CheckedType, t2: CheckedType): boolean {
  if (t2.kind === 'typeParam') {
    const { valid, hasSub } = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'typeParam') return isValidTypeSubstitution(m, t2, t1).valid;
  if (isDynOrError(t1) || isDynOrError(t2)) return true;

  switch (t1.kind) {
    case 'null':
      return isNullable(t2);
    case 'primitive':
      return t2.kind === 'primitive' && t1.name === t2.name;
    case 'list':
      return t2.kind === 'list' && internalIsAssignable(m, t1.elem, t2.elem);
    case 'map':
      return t2.kind === 'map' && internalIsAssignableList(m, [t1.key, t1.value], [t2.key, t2.value]);
    case 'object':
      return t2.kind === 'object' && t1.name === t2.name;
    case 'type':
      return t2.kind === 'type';
    case 'wellKnown':
      return t2.kind === 'wellKnown' && t1.name === t2.name;
    case 'function':
      return (
        t2.kind === 'function' &&
        internalIsAssignableList(m, [...t1.args, t1.result], [...t2.args, t2.result])
      );
    default:
      return false;
  }
}

/** New bindings if t1 is assignable to t2 (t2 may be an instantiated overload parameter). */
export function isAssignable(m: Substitutions, t1: CheckedType, t2: CheckedType): Substitutions | undefined {
  const copy = m.copy();
  return internalIsAssignable(copy, t1, t2) ? copy : undefined;
}

export function isAssignableList(
  m: Substitutions,
  l1: readonly CheckedType[],
  l2: readonly CheckedType[],
): Substitutions | undefined {
  const copy = m.copy();
  return internalIsAssignableList(copy, l1, l2) ? copy : undefined;
}

/** Replaces bound type parameters; unbound ones become DYN when typeParamToDyn. */
export function substitute(m: Substitutions, t: CheckedType, typeParamToDyn: boolean): CheckedType {
  const sub = m.find(t);
  if (sub !== undefined) return substitute(m, sub, typeParamToDyn);
  switch (t.kind) {
    case 'typeParam':
      return typeParamToDyn ? DYN : t;
    case 'function':
      return functionOf(
        substitute(m, t.result, typeParamToDyn),
        t.args.map((a) => substitute(m, a, typeParamToDyn)),
      );
    case 'list':
      return listOf(substitute(m, t.elem, typeParamToDyn));
    case 'map':
      return mapOf(substitute(m, t.key, typeParamToDyn), substitute(m, t.value, typeParamToDyn));
    case 'type':
      return t.type === undefined ? t : typeOf(substitute(m, t.type, typeParamToDyn));
    default:
      return t;
  }
}
