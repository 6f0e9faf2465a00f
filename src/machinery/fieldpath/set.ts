/**
 * A set of field paths (structured-merge-diff's fieldpath.Set) as a tree: `members` are the paths
 * that end here, `children` the subtrees under a path element, both sorted by element order. The
 * FieldsV1 JSON of managedFields is this tree: `{"f:spec":{"f:replicas":{}}}`, with "." marking a
 * node that is itself a member and has children.
 */
import {
  PathElementError,
  UnknownPathElementType,
  compareElements,
  deserializeElement,
  pathString,
  serializeElement,
} from './path-element.js';
import type { Path, PathElement } from './path-element.js';

interface Child {
  readonly element: PathElement;
  readonly set: FieldSet;
}

/** Index of `e` in sorted `list` (by `at`), or -(insertion point) - 1. */
function search<T>(list: readonly T[], e: PathElement, at: (t: T) => PathElement): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareElements(at(list[mid]!), e);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}
const self = (e: PathElement): PathElement => e;
const elementOf = (c: Child): PathElement => c.element;

/** FieldsV1 objects made from sets, and sets read from FieldsV1 objects (both never changed). */
const encoded = new WeakMap<FieldSet, Record<string, unknown>>();
const decoded = new WeakMap<object, FieldSet>();

export class FieldSet {
  /** Path elements that are members (sorted). */
  readonly members: PathElement[];
  /** Subsets under an element (sorted by element). */
  readonly children: Child[];

  constructor(members: PathElement[] = [], children: Child[] = []) {
    this.members = members;
    this.children = children;
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let node = this.#descendFrom(path[0]!, path.length > 1);
    for (let i = 1; i < path.length - 1; i++) node = node.#descend(path[i]!);
    const last = path[path.length - 1]!;
    const at = search(node.members, last, self);
    if (at < 0) node.members.splice(-at - 1, 0, last);
  }

  /** Adds `e` as a member of this set (a path of one element). */
  addMember(e: PathElement): void {
    const m = this.members;
    // Walks usually add in order (or the last one again): one comparison.
    const c = m.length === 0 ? -1 : compareElements(m[m.length - 1]!, e);
    if (c < 0) {
      m.push(e);
      return;
    }
    if (c === 0) return;
    const at = search(m, e, self);
    if (at < 0) m.splice(-at - 1, 0, e);
  }

  /** The subset under `e`, made (empty) when there is none. */
  descend(e: PathElement): FieldSet {
    const c = this.children;
    if (c.length === 0 || compareElements(c[c.length - 1]!.element, e) < 0) {
      const set = new FieldSet();
      c.push({ element: e, set });
      return set;
    }
    return this.#descend(e);
  }

  /** Drops subsets left with nothing in them (after `descend` found nothing to add). */
  pruneEmpty(): this {
    for (let i = this.children.length - 1; i >= 0; i--) {
      const c = this.children[i]!;
      c.set.pruneEmpty();
      if (c.set.members.length === 0 && c.set.children.length === 0) this.children.splice(i, 1);
    }
    return this;
  }

  /** The subset under `first` when the path goes on, else this set. */
  #descendFrom(first: PathElement, deeper: boolean): FieldSet {
    return deeper ? this.#descend(first) : this;
  }

  #descend(e: PathElement): FieldSet {
    const at = search(this.children, e, elementOf);
    if (at >= 0) return this.children[at]!.set;
    const set = new FieldSet();
    this.children.splice(-at - 1, 0, { element: e, set });
    return set;
  }

  /** The subset under `e` (empty when there is none). */
  child(e: PathElement): FieldSet | undefined {
    const at = search(this.children, e, elementOf);
    return at >= 0 ? this.children[at]!.set : undefined;
  }

  hasMember(e: PathElement): boolean {
    return search(this.members, e, self) >= 0;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    if (path.length === 1) return this.hasMember(path[0]!);
    let node = this.child(path[0]!);
    for (let i = 1; i < path.length - 1 && node !== undefined; i++) node = node.child(path[i]!);
    return node !== undefined && node.hasMember(path[path.length - 1]!);
  }

  get empty(): boolean {
    if (this.members.length > 0) return false;
    for (const c of this.children) if (!c.set.empty) return false;
    return true;
  }

  get size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size;
    return n;
  }

  union(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members);
    const children: Child[] = [];
    let i = 0;
    let j = 0;
    const a = this.children;
    const b = other.children;
    while (i < a.length && j < b.length) {
      const c = compareElements(a[i]!.element, b[j]!.element);
      if (c < 0) children.push(a[i++]!);
      else if (c > 0) children.push(b[j++]!);
      else {
        children.push({ element: a[i]!.element, set: a[i]!.set.union(b[j]!.set) });
        i++;
        j++;
      }
    }
    while (i < a.length) children.push(a[i++]!);
    while (j < b.length) children.push(b[j++]!);
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const members = sortedFilter(this.members, other.members, true);
    const children: Child[] = [];
    for (const c of this.children) {
      const o = other.child(c.element);
      if (o === undefined) continue;
      const r = c.set.intersection(o);
      if (!r.empty) children.push({ element: c.element, set: r });
    }
    return new FieldSet(members, children);
  }

  /** The paths of this set that are not in `other`. */
  difference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = sortedFilter(this.members, other.members, false);
    let same = members.length === this.members.length;
    const children: Child[] = [];
    for (const c of this.children) {
      const o = other.child(c.element);
      if (o === undefined) {
        children.push(c);
        continue;
      }
      const r = c.set.difference(o);
      if (r !== c.set) same = false;
      if (!r.empty) children.push(r === c.set ? c : { element: c.element, set: r });
    }
    // Sets are not changed once built: an unchanged result is this set (its encoding is reused).
    return same ? this : new FieldSet(members, children);
  }

  /** As `difference`, and a member of `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.members.length === 0 && other.children.length === 0) return this;
    const members = sortedFilter(this.members, other.members, false);
    let same = members.length === this.members.length;
    const children: Child[] = [];
    for (const c of this.children) {
      if (other.hasMember(c.element)) {
        same = false;
        continue;
      }
      const o = other.child(c.element);
      if (o === undefined) {
        children.push(c);
        continue;
      }
      const r = c.set.recursiveDifference(o);
      if (r !== c.set) same = false;
      if (!r.empty) children.push(r === c.set ? c : { element: c.element, set: r });
    }
    return same ? this : new FieldSet(members, children);
  }

  /** The members that have nothing under them (structured-merge-diff's Leaves). */
  leaves(): FieldSet {
    const members = this.members.filter((m) => this.child(m) === undefined);
    const children: Child[] = [];
    for (const c of this.children) children.push({ element: c.element, set: c.set.leaves() });
    return new FieldSet(members, children);
  }

  /** This set with `e` in front of every path. */
  prefixedWith(e: PathElement): FieldSet {
    return new FieldSet([], [{ element: e, set: this }]);
  }

  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) {
      return false;
    }
    for (let i = 0; i < this.members.length; i++) {
      if (compareElements(this.members[i]!, other.members[i]!) !== 0) return false;
    }
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i]!;
      const b = other.children[i]!;
      if (compareElements(a.element, b.element) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Every member path, in order (a node's own path before those under it). */
  *paths(prefix: Path = []): Generator<Path> {
    let i = 0;
    let j = 0;
    const m = this.members;
    const c = this.children;
    while (i < m.length || j < c.length) {
      const cmp = i >= m.length ? 1 : j >= c.length ? -1 : compareElements(m[i]!, c[j]!.element);
      if (cmp < 0) yield [...prefix, m[i++]!];
      else if (cmp > 0) {
        yield* c[j]!.set.paths([...prefix, c[j]!.element]);
        j++;
      } else {
        yield [...prefix, m[i++]!];
        yield* c[j]!.set.paths([...prefix, c[j]!.element]);
        j++;
      }
    }
  }

  toString(): string {
    return [...this.paths()].map(pathString).join('\n');
  }

  /** The FieldsV1 object (`metadata.managedFields[].fieldsV1`); made once per set. */
  toFieldsV1(): Record<string, unknown> {
    let v = encoded.get(this);
    if (v === undefined) {
      v = this.#emit(false);
      encoded.set(this, v);
      decoded.set(v, this);
    }
    return v;
  }

  #emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.length > 0 || this.children.length > 0)) out['.'] = {};
    let i = 0;
    let j = 0;
    const m = this.members;
    const c = this.children;
    while (i < m.length || j < c.length) {
      const cmp = i >= m.length ? 1 : j >= c.length ? -1 : compareElements(m[i]!, c[j]!.element);
      if (cmp < 0) out[serializeElement(m[i++]!)] = {};
      else if (cmp > 0) {
        out[serializeElement(c[j]!.element)] = c[j]!.set.#emit(false);
        j++;
      } else {
        out[serializeElement(c[j]!.element)] = c[j]!.set.#emit(true);
        i++;
        j++;
      }
    }
    return out;
  }

  /** Reads FieldsV1 (keys of unknown element kinds are skipped, as upstream does). */
  static fromFieldsV1(v: unknown): FieldSet {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new PathElementError('fieldsV1 must be a JSON object');
    }
    // The FieldsV1 of a stored object is read again by every write to it: once is enough (the
    // objects of stored values are not changed).
    let set = decoded.get(v);
    if (set === undefined) {
      set = read(v as Record<string, unknown>).set;
      decoded.set(v, set);
    }
    return set;
  }
}

function read(obj: Record<string, unknown>): { set: FieldSet; isMember: boolean } {
  const set = new FieldSet();
  let isMember = false;
  for (const [key, value] of Object.entries(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let e: PathElement;
    try {
      e = deserializeElement(key);
    } catch (err) {
      if (err instanceof UnknownPathElementType) continue;
      throw err;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new PathElementError(`expected an object under ${JSON.stringify(key)}`);
    }
    const sub = read(value as Record<string, unknown>);
    // A node with nothing (known) under it is a member, as is one marked ".".
    const hasContent = sub.set.members.length > 0 || sub.set.children.length > 0;
    if (!hasContent || sub.isMember) {
      const at = search(set.members, e, self);
      if (at < 0) set.members.splice(-at - 1, 0, e);
    }
    if (hasContent) {
      const at = search(set.children, e, elementOf);
      if (at < 0) set.children.splice(-at - 1, 0, { element: e, set: sub.set });
    }
  }
  return { set, isMember };
}

/** The elements of sorted `a` that are (`keep`) or are not in sorted `b`, in one pass. */
function sortedFilter(a: readonly PathElement[], b: readonly PathElement[], keep: boolean): PathElement[] {
  const out: PathElement[] = [];
  let j = 0;
  for (const x of a) {
    let c = 1;
    while (j < b.length && (c = compareElements(b[j]!, x)) < 0) j++;
    const found = j < b.length && c === 0;
    if (found === keep) out.push(x);
  }
  return out;
}

function mergeSorted(a: readonly PathElement[], b: readonly PathElement[]): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(a[i]!, b[j]!);
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else {
      out.push(a[i++]!);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
