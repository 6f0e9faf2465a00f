/**
 * structured-merge-diff's Compare: the fields added, modified and removed from one value to
 * another, following the type model (atomic parts are leaves, granular maps go field by field,
 * associative lists item by item).
 *
 * It is the merge walk with other rules, written as its own walk because every write of a tracked
 * object runs it (the field manager compares the live and the new object): it builds no merged
 * value, keeps one path stack instead of a path per field, and indexes each list once. What it
 * reports, and whether it fails, is what the merge walk with compare's rules gives.
 */
import { elementString, fieldElement, serializeElement } from '../fieldpath/path-element.js';
import type { PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Atom, ListAtom, MapAtom } from './atom.js';
import { TypedError, TypedErrors, isMap, listItemElement, valuesEqual } from './value.js';
import type { JsonMap } from './value.js';
import { deduce, sameAtom } from './walk.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.added.empty && c.modified.empty && c.removed.empty;
}

/** The fields added, modified and removed from `lhs` to `rhs` (structured-merge-diff's Compare). */
export function compare(lhs: unknown, rhs: unknown, atom: Atom): Comparison {
  const w = new CompareWalk();
  w.value(lhs, rhs, atom);
  if (w.errs.length > 0) throw new TypedErrors(w.errs);
  return w.result;
}

/** A list's items by their element's FieldsV1 key, in the list's order. */
type Indexed = Map<string, { readonly pe: PathElement; readonly item: unknown }>;

class CompareWalk {
  readonly result = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  readonly errs: TypedError[] = [];
  /** The path of the value being compared. */
  readonly #path: PathElement[] = [];

  /** Compares two values of one field or item (either may be absent). */
  value(lhs: unknown, rhs: unknown, atom: Atom): void {
    const alhs = deduce(atom, lhs);
    const arhs = deduce(atom, rhs);
    let leaf: boolean;
    if (rhs === undefined) leaf = this.#handle(alhs, lhs, rhs);
    else if (lhs === undefined || sameAtom(alhs, arhs)) leaf = this.#handle(arhs, lhs, rhs);
    else {
      // Values of different kinds (possible when deduced): each walked as its own kind; the
      // second walk's leaf is the one that decides whether the field itself was added or removed.
      this.#handle(alhs, lhs, rhs);
      leaf = this.#handle(arhs, lhs, rhs);
    }
    if (leaf) return;
    // A granular map or list reached (no leaf): the field itself was added or removed.
    if (lhs === undefined) this.result.added.insert(this.#path);
    else if (rhs === undefined) this.result.removed.insert(this.#path);
  }

  /** Walks the values as `a`; true when they were compared as a leaf. */
  #handle(a: Atom, lhs: unknown, rhs: unknown): boolean {
    if (a.map !== undefined) return this.#map(a.map, lhs, rhs);
    if (a.scalar === true) {
      this.#leaf(lhs, rhs);
      return true;
    }
    if (a.list !== undefined) return this.#list(a.list, lhs, rhs);
    return false;
  }

  #leaf(lhs: unknown, rhs: unknown): void {
    if (lhs === undefined) this.result.added.insert(this.#path);
    else if (rhs === undefined) this.result.removed.insert(this.#path);
    else if (!valuesEqual(lhs, rhs)) this.result.modified.insert(this.#path);
  }

  #map(m: MapAtom, lhsValue: unknown, rhsValue: unknown): boolean {
    const lhs = isMap(lhsValue) ? lhsValue : undefined;
    const rhs = isMap(rhsValue) ? rhsValue : undefined;
    if (m.relationship === 'atomic' || (isEmptyMap(lhs) && isEmptyMap(rhs))) {
      this.#leaf(lhsValue, rhsValue);
      return true;
    }
    if (lhs !== undefined) {
      for (const key in lhs) {
        if (!Object.hasOwn(lhs, key)) continue;
        this.#field(m, key, lhs[key], rhs !== undefined && Object.hasOwn(rhs, key) ? rhs[key] : undefined);
      }
    }
    if (rhs !== undefined) {
      for (const key in rhs) {
        if (!Object.hasOwn(rhs, key) || (lhs !== undefined && Object.hasOwn(lhs, key))) continue;
        this.#field(m, key, undefined, rhs[key]);
      }
    }
    return false;
  }

  #field(m: MapAtom, key: string, l: unknown, r: unknown): void {
    const pe = fieldElement(key);
    this.#path.push(pe);
    const ft = m.field(key) ?? m.elem();
    if (ft === undefined) this.errs.push(new TypedError(this.#pathText(), 'field not declared in schema'));
    else this.value(l, r, ft);
    this.#path.pop();
  }

  #list(list: ListAtom, lhsValue: unknown, rhsValue: unknown): boolean {
    const lhs = Array.isArray(lhsValue) ? (lhsValue as unknown[]) : undefined;
    const rhs = Array.isArray(rhsValue) ? (rhsValue as unknown[]) : undefined;
    if (list.relationship === 'atomic' || ((lhs?.length ?? 0) === 0 && (rhs?.length ?? 0) === 0)) {
      this.#leaf(lhsValue, rhsValue);
      return true;
    }
    // The merge walk indexes the rhs first: its errors come first.
    const r = this.#index(list, rhs ?? []);
    const l = this.#index(list, lhs ?? []);
    const elem = list.elem();
    for (const [k, { pe, item }] of l) this.#item(pe, item, r.get(k)?.item, elem);
    for (const [k, { pe, item }] of r) if (!l.has(k)) this.#item(pe, undefined, item, elem);
    return false;
  }

  #item(pe: PathElement, l: unknown, r: unknown, elem: Atom): void {
    this.#path.push(pe);
    this.value(l, r, elem);
    this.#path.pop();
  }

  #index(list: ListAtom, values: readonly unknown[]): Indexed {
    const items: Indexed = new Map();
    for (let i = 0; i < values.length; i++) {
      const item = values[i];
      const pe = listItemElement(list, i, item);
      if (typeof pe === 'string') {
        this.errs.push(new TypedError(this.#pathText(), `element ${i}: ${pe}`));
        continue;
      }
      const k = serializeElement(pe);
      if (items.has(k)) {
        this.errs.push(new TypedError(this.#pathText(), `duplicate entries for key ${elementString(pe)}`));
        continue;
      }
      items.set(k, { pe, item });
    }
    return items;
  }

  #pathText(): string {
    return this.#path.map(elementString).join('');
  }
}

function isEmptyMap(m: JsonMap | undefined): boolean {
  if (m === undefined) return true;
  for (const key in m) if (Object.hasOwn(m, key)) return false;
  return true;
}
