/**
 * structured-merge-diff's typed walkers over JSON values: the set of fields a value sets
 * (ToFieldSet), the merge of two values (Merge; Compare, the same walk with other rules, is compare.ts), and
 * the removal of a set of fields (RemoveItems), each following the type model: atomic parts are
 * leaves, granular maps go field by field, associative lists item by item (by key or value), in
 * upstream's item order.
 */
import {
  fieldElement,
  elementString,
  equalElements,
  compareElements,
  serializeElement,
} from '../fieldpath/path-element.js';
import type { Path, PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { compareStrings } from '../fieldpath/value.js';
import type { Atom, ListAtom, MapAtom } from './atom.js';
import { TypedError, TypedErrors, isMap, isScalar, listItemElement } from './value.js';
import type { JsonMap } from './value.js';

/** The part of a (possibly deduced) atom that fits `v` (structured-merge-diff's deduceAtom). */
export function deduce(atom: Atom, v: unknown): Atom {
  if (v === undefined) return atom;
  if (isScalar(v)) return atom.scalar === true ? { scalar: true } : atom;
  if (Array.isArray(v)) return atom.list !== undefined ? { list: atom.list } : atom;
  if (isMap(v)) return atom.map !== undefined ? { map: atom.map } : atom;
  return atom;
}

/** Whether two (deduced) atoms are the same kinds of the same types. */
export function sameAtom(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

function fieldAtom(m: MapAtom, name: string): Atom | undefined {
  return m.field(name) ?? m.elem();
}

// ---------------------------------------------------------------------------------------------
// ToFieldSet

/** The fields `value` sets, as structured-merge-diff's ToFieldSet. */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  const set = new FieldSet();
  const errs: TypedError[] = [];
  walkSet(value, atom, [], set, undefined, errs);
  if (errs.length > 0) throw new TypedErrors(errs);
  return set.pruneEmpty();
}

/**
 * Adds the fields of `value` (at `path`, the element `self` of `parent`) to the tree: members go
 * straight into the node of their parent, with no path copied per field.
 */
function walkSet(
  value: unknown,
  atom: Atom,
  path: PathElement[],
  parent: FieldSet,
  self: PathElement | undefined,
  errs: TypedError[],
): void {
  const a = deduce(atom, value);
  const member = (): void => {
    if (self !== undefined) parent.addMember(self);
  };
  if (a.map !== undefined) {
    if (a.map.relationship === 'atomic') {
      member();
      return;
    }
    if (!isMap(value)) return;
    let node: FieldSet | undefined;
    for (const key of Object.keys(value).sort(compareStrings)) {
      const v = value[key];
      const ft = fieldAtom(a.map, key);
      const pe = fieldElement(key);
      if (ft === undefined) {
        errs.push(new TypedError(pathText([...path, pe]), 'field not declared in schema'));
        continue;
      }
      node ??= self === undefined ? parent : parent.descend(self);
      path.push(pe);
      walkSet(v, ft, path, node, pe, errs);
      path.pop();
      if (v === null || (isMap(v) && Object.keys(v).length === 0) || !a.map.hasField(key)) node.addMember(pe);
    }
    return;
  }
  if (a.scalar === true) {
    member();
    return;
  }
  if (a.list !== undefined) {
    if (a.list.relationship === 'atomic') {
      member();
      return;
    }
    if (!Array.isArray(value)) return;
    const elem = a.list.elem();
    const items: { pe: PathElement; item: unknown }[] = [];
    value.forEach((item: unknown, i) => {
      const pe = listItemElement(a.list!, i, item);
      if (typeof pe === 'string') errs.push(new TypedError(pathText(path), `element ${i}: ${pe}`));
      else items.push({ pe, item });
    });
    if (items.length === 0) return;
    items.sort((x, y) => compareElements(x.pe, y.pe));
    const node = self === undefined ? parent : parent.descend(self);
    for (const { pe, item } of items) {
      path.push(pe);
      walkSet(item, elem, path, node, pe, errs);
      path.pop();
      node.addMember(pe);
    }
  }
}

/**
 * Checks `value` against the type as structured-merge-diff's AsTyped does before any walk: fields
 * the schema does not declare, list items without their keys, duplicate keys.
 */
export function validate(value: unknown, atom: Atom): void {
  const errs: TypedError[] = [];
  walkValidate(value, atom, [], errs);
  if (errs.length > 0) throw new TypedErrors(errs);
}

function walkValidate(value: unknown, atom: Atom, path: PathElement[], errs: TypedError[]): void {
  const a = deduce(atom, value);
  if (a.map !== undefined) {
    if (!isMap(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const ft = fieldAtom(a.map, key);
      const p = [...path, fieldElement(key)];
      if (ft === undefined) errs.push(new TypedError(pathText(p), 'field not declared in schema'));
      else walkValidate(v, ft, p, errs);
    }
    return;
  }
  if (a.list !== undefined && Array.isArray(value)) {
    const elem = a.list.elem();
    const seen: PathElement[] = [];
    value.forEach((item: unknown, i) => {
      const pe = listItemElement(a.list!, i, item);
      if (typeof pe === 'string') {
        errs.push(new TypedError(pathText(path), `element ${i}: ${pe}`));
        return;
      }
      if (a.list!.relationship === 'associative' && seen.some((x) => equalElements(x, pe))) {
        errs.push(new TypedError(pathText(path), `duplicate entries for key ${elementString(pe)}`));
        return;
      }
      seen.push(pe);
      walkValidate(item, elem, [...path, pe], errs);
    });
  }
}

function pathText(p: Path): string {
  return p.map(elementString).join('');
}

// ---------------------------------------------------------------------------------------------
// Merge

type Rule = (w: Walker) => void;

interface Walker {
  readonly lhs: unknown;
  readonly rhs: unknown;
  readonly path: Path;
  /** The merged value (undefined: none). */
  out: unknown;
  inLeaf: boolean;
}

interface MergeRules {
  readonly leaf: Rule;
  readonly errs: TypedError[];
}

const keepRhs: Rule = (w) => {
  if (w.rhs !== undefined) w.out = w.rhs;
  else if (w.lhs !== undefined) w.out = w.lhs;
};

function mergeWalk(lhs: unknown, rhs: unknown, atom: Atom, path: Path, rules: MergeRules): Walker {
  const w: Walker = { lhs, rhs, path, out: undefined, inLeaf: false };
  const alhs = deduce(atom, lhs);
  const arhs = deduce(atom, rhs);
  if (rhs === undefined) handle(alhs, w, rules);
  else if (lhs === undefined || sameAtom(alhs, arhs)) handle(arhs, w, rules);
  else {
    // Values of different kinds (possible when deduced): walk each as its own kind.
    const w2: Walker = { ...w };
    handle(alhs, w2, rules);
    handle(arhs, w, rules);
  }
  return w;
}

function doLeaf(w: Walker, rules: MergeRules): void {
  if (w.inLeaf) return;
  w.inLeaf = true;
  rules.leaf(w);
}

function handle(a: Atom, w: Walker, rules: MergeRules): void {
  if (a.map !== undefined) mergeMap(a.map, w, rules);
  else if (a.scalar === true) doLeaf(w, rules);
  else if (a.list !== undefined) mergeList(a.list, w, rules);
}

function mapOf(v: unknown): JsonMap | undefined {
  return isMap(v) ? v : undefined;
}

function mergeMap(m: MapAtom, w: Walker, rules: MergeRules): void {
  const lhs = mapOf(w.lhs);
  const rhs = mapOf(w.rhs);
  const empty =
    (lhs === undefined || Object.keys(lhs).length === 0) &&
    (rhs === undefined || Object.keys(rhs).length === 0);
  if (m.relationship === 'atomic' || empty) {
    doLeaf(w, rules);
    return;
  }
  const out: JsonMap = {};
  const keys = new Set([...Object.keys(lhs ?? {}), ...Object.keys(rhs ?? {})]);
  for (const key of keys) {
    const ft = fieldAtom(m, key);
    const p = [...w.path, fieldElement(key)];
    const l = lhs !== undefined && Object.hasOwn(lhs, key) ? lhs[key] : undefined;
    const r = rhs !== undefined && Object.hasOwn(rhs, key) ? rhs[key] : undefined;
    if (ft === undefined) {
      rules.errs.push(new TypedError(pathText(p), 'field not declared in schema'));
      continue;
    }
    const child = mergeWalk(l, r, ft, p, rules);
    if (child.out !== undefined) out[key] = child.out;
  }
  if (Object.keys(out).length > 0) w.out = out;
}

interface Indexed {
  readonly order: PathElement[];
  /** Items by their element's FieldsV1 key. */
  readonly items: Map<string, unknown>;
}

function indexList(list: ListAtom, values: readonly unknown[], path: Path, errs: TypedError[]): Indexed {
  const order: PathElement[] = [];
  const items = new Map<string, unknown>();
  values.forEach((item, i) => {
    const pe = listItemElement(list, i, item);
    if (typeof pe === 'string') {
      errs.push(new TypedError(pathText(path), `element ${i}: ${pe}`));
      return;
    }
    const k = serializeElement(pe);
    if (items.has(k)) {
      errs.push(new TypedError(pathText(path), `duplicate entries for key ${elementString(pe)}`));
      return;
    }
    items.set(k, item);
    order.push(pe);
  });
  return { order, items };
}

function find(ix: Indexed, pe: PathElement): { found: boolean; item: unknown } {
  const k = serializeElement(pe);
  return ix.items.has(k) ? { found: true, item: ix.items.get(k) } : { found: false, item: undefined };
}

function mergeList(list: ListAtom, w: Walker, rules: MergeRules): void {
  const lhs = Array.isArray(w.lhs) ? (w.lhs as unknown[]) : undefined;
  const rhs = Array.isArray(w.rhs) ? (w.rhs as unknown[]) : undefined;
  const empty = (lhs === undefined || lhs.length === 0) && (rhs === undefined || rhs.length === 0);
  if (list.relationship === 'atomic' || empty) {
    doLeaf(w, rules);
    return;
  }
  const elem = list.elem();
  const out: unknown[] = [];
  const r = indexList(list, rhs ?? [], w.path, rules.errs);
  const l = indexList(list, lhs ?? [], w.path, rules.errs);
  // The items both sides have, in the rhs's order: the rhs's order wins for them.
  const shared = r.order.filter((pe) => find(l, pe).found);
  let nextShared: PathElement | undefined = shared.shift();
  const item = (pe: PathElement, lv: unknown, rv: unknown): void => {
    const child = mergeWalk(lv, rv, elem, [...w.path, pe], rules);
    if (child.out !== undefined) out.push(child.out);
  };
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    if (li < l.order.length && ri < r.order.length) {
      const pe = l.order[li]!;
      if (equalElements(pe, r.order[ri]!)) {
        item(pe, find(l, pe).item, find(r, pe).item);
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (find(r, pe).found && nextShared !== undefined && !equalElements(nextShared, pe)) {
        li++;
        continue;
      }
    }
    if (li < l.order.length) {
      const pe = l.order[li]!;
      if (!find(r, pe).found) {
        item(pe, find(l, pe).item, undefined);
        li++;
        continue;
      }
    }
    if (ri < r.order.length) {
      const pe = r.order[ri]!;
      const lf = find(l, pe);
      item(pe, lf.found ? lf.item : undefined, find(r, pe).item);
      ri++;
      if (nextShared !== undefined && equalElements(nextShared, pe)) nextShared = shared.shift();
    }
  }
  if (out.length > 0) w.out = out;
}

/** `lhs` with `rhs` merged in (structured-merge-diff's Merge): rhs wins at every leaf. */
export function merge(lhs: unknown, rhs: unknown, atom: Atom): unknown {
  const errs: TypedError[] = [];
  const w = mergeWalk(lhs, rhs, atom, [], { leaf: keepRhs, errs });
  if (errs.length > 0) throw new TypedErrors(errs);
  return w.out;
}

// ---------------------------------------------------------------------------------------------
// RemoveItems / ExtractItems

/**
 * `value` without the fields of `toRemove` (or, extracting, with only them), as
 * structured-merge-diff's RemoveItems / ExtractItems: a map or list left with nothing, and an
 * empty one, becomes null.
 */
export function removeItems(value: unknown, toRemove: FieldSet, atom: Atom, extract = false): unknown {
  const a = deduce(atom, value);
  if (a.map !== undefined) {
    if (!isMap(value) || Object.keys(value).length === 0) return null;
    if (a.map.relationship === 'atomic') return extract ? value : null;
    const out: JsonMap = {};
    let n = 0;
    for (const [k, v] of Object.entries(value)) {
      const pe = fieldElement(k);
      const ft = fieldAtom(a.map, k) ?? atom;
      if (toRemove.hasMember(pe)) {
        if (extract) {
          out[k] = removeItems(v, toRemove, ft, extract);
          n++;
        }
        continue;
      }
      const subset = toRemove.child(pe);
      let val = v;
      if (subset !== undefined && !subset.empty) val = removeItems(v, subset, ft, extract);
      else if (extract) continue;
      out[k] = val;
      n++;
    }
    return n > 0 ? out : null;
  }
  if (a.scalar === true) return value;
  if (a.list !== undefined) {
    if (!Array.isArray(value) || value.length === 0) return null;
    if (a.list.relationship === 'atomic') return extract ? value : null;
    const elem = a.list.elem();
    const items: unknown[] = [];
    value.forEach((item: unknown, i) => {
      const pe = listItemElement(a.list!, i, item);
      if (typeof pe === 'string') return;
      if (toRemove.hasMember(pe)) {
        if (extract) items.push(removeItems(item, toRemove, elem, extract));
        else return;
      }
      const subset = toRemove.child(pe);
      let val = item;
      if (subset !== undefined && !subset.empty) val = removeItems(item, subset, elem, extract);
      else if (extract) return;
      items.push(val);
    });
    return items.length > 0 ? items : null;
  }
  return value;
}

/** structured-merge-diff's EnsureNamedFieldsAreMembers: struct fields with children are members too. */
export function ensureNamedFieldsAreMembers(set: FieldSet, atom: Atom | undefined): FieldSet {
  const members = [...set.members];
  const children = set.children.map((c) => {
    let ca: Atom | undefined;
    if ('field' in c.element && atom?.map !== undefined) {
      ca = fieldAtom(atom.map, c.element.field);
      if (atom.map.hasField(c.element.field) && !members.some((m) => equalElements(m, c.element))) {
        members.push(c.element);
      }
    } else if ('key' in c.element && atom?.list !== undefined) ca = atom.list.elem();
    return { element: c.element, set: ensureNamedFieldsAreMembers(c.set, ca) };
  });
  members.sort(compareElements);
  return new FieldSet(members, children);
}
