/**
 * structured-merge-diff's Updater (merge/update.go): who owns what after an Update or an Apply.
 *
 * Update: every other manager loses the fields the change modified, added or removed; the updating
 * manager gains the modified and added ones. Apply: the live object merged with the applied
 * configuration; the applier owns exactly the configuration's fields; fields it applied before and
 * no longer applies are removed unless another manager owns them; another manager owning a field
 * the apply changes is a conflict unless forced (then it loses the field).
 *
 * Objects are compared at each manager's API version through `convert` (managers of a version the
 * resource no longer serves are dropped); `ignored` fields (the strategy's reset fields) are
 * owned by nobody.
 */
import { pathString } from '../fieldpath/path-element.js';
import type { Path } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Atom } from '../typed/atom.js';
import { compare, isSame } from '../typed/compare.js';
import type { Comparison } from '../typed/compare.js';
import { ensureNamedFieldsAreMembers, merge, removeItems, toFieldSet } from '../typed/walk.js';
import type { VersionedSet } from './managed-fields.js';

export interface Conflict {
  /** The manager identifier. */
  readonly manager: string;
  readonly path: Path;
}

export class ConflictsError extends Error {
  readonly conflicts: readonly Conflict[];
  constructor(conflicts: readonly Conflict[]) {
    super(
      conflicts.map((c) => `conflict with ${JSON.stringify(c.manager)}: ${pathString(c.path)}`).join('\n'),
    );
    this.conflicts = conflicts;
  }
}

/** The object at another API version; throws MissingVersion when the resource has no such version. */
export class MissingVersion extends Error {}

export interface UpdaterOptions {
  /** The type of the object at an API version. */
  readonly atomFor: (apiVersion: string) => Atom;
  /** The object converted to `apiVersion` (identity for its own version). */
  readonly convert: (obj: unknown, apiVersion: string) => unknown;
  /** Fields no manager owns, per API version. */
  readonly ignored?: (apiVersion: string) => FieldSet | undefined;
}

type Managers = Map<string, VersionedSet>;

export class Updater {
  readonly #o: UpdaterOptions;
  /** Field sets of objects within one prune (the merged object's is asked for three times). */
  #sets = new WeakMap<object, FieldSet>();

  #fieldSet(obj: unknown, atom: Atom): FieldSet {
    if (obj === null || typeof obj !== 'object') return toFieldSet(obj, atom);
    let s = this.#sets.get(obj);
    if (s === undefined) {
      s = ensureNamedFieldsAreMembers(toFieldSet(obj, atom), atom);
      this.#sets.set(obj, s);
    }
    return s;
  }
  constructor(o: UpdaterOptions) {
    this.#o = o;
  }

  #compareAt(
    oldObj: unknown,
    newObj: unknown,
    version: string,
    versions: Map<string, Comparison>,
  ): Comparison {
    let c = versions.get(version);
    if (c === undefined) {
      c = compare(
        this.#o.convert(oldObj, version),
        this.#o.convert(newObj, version),
        this.#o.atomFor(version),
      );
      const ignored = this.#o.ignored?.(version);
      if (ignored !== undefined && !ignored.empty) {
        c = {
          added: c.added.recursiveDifference(ignored),
          modified: c.modified.recursiveDifference(ignored),
          removed: c.removed.recursiveDifference(ignored),
        };
      }
      versions.set(version, c);
    }
    return c;
  }

  #update(
    oldObj: unknown,
    newObj: unknown,
    version: string,
    managers: Managers,
    workflow: string,
    force: boolean,
  ): { managers: Managers; compare: Comparison } {
    const versions = new Map<string, Comparison>();
    const own = this.#compareAt(oldObj, newObj, version, versions);
    const conflicts = new Map<string, FieldSet>();
    const removed = new Map<string, FieldSet>();
    for (const [manager, vs] of [...managers]) {
      if (manager === workflow) continue;
      let c: Comparison;
      try {
        c = this.#compareAt(oldObj, newObj, vs.apiVersion, versions);
      } catch (err) {
        if (err instanceof MissingVersion) {
          managers.delete(manager);
          continue;
        }
        throw err;
      }
      const conflict = vs.set.intersection(c.modified.union(c.added));
      if (!conflict.empty) conflicts.set(manager, conflict);
      if (!c.removed.empty) removed.set(manager, c.removed);
    }
    if (!force && conflicts.size > 0) {
      const list: Conflict[] = [];
      for (const manager of [...conflicts.keys()].sort()) {
        for (const path of conflicts.get(manager)!.paths()) list.push({ manager, path });
      }
      throw new ConflictsError(list);
    }
    for (const [manager, set] of conflicts) {
      const vs = managers.get(manager)!;
      managers.set(manager, { ...vs, set: vs.set.difference(set) });
    }
    for (const [manager, set] of removed) {
      const vs = managers.get(manager);
      if (vs !== undefined) managers.set(manager, { ...vs, set: vs.set.difference(set) });
    }
    for (const [manager, vs] of [...managers]) if (vs.set.empty) managers.delete(manager);
    return { managers, compare: own };
  }

  /** An update by `manager` from `live` to `next` (the object is unchanged). */
  update(live: unknown, next: unknown, version: string, managers: Managers, manager: string): Managers {
    const r = this.#update(live, next, version, managers, manager, true);
    const prev = r.managers.get(manager)?.set ?? new FieldSet();
    const ignored = this.#o.ignored?.(version) ?? new FieldSet();
    const set = prev
      .union(r.compare.modified)
      .union(r.compare.added)
      .difference(r.compare.removed)
      .recursiveDifference(ignored);
    if (set.empty) r.managers.delete(manager);
    else r.managers.set(manager, { set, apiVersion: version, applied: false });
    return r.managers;
  }

  /**
   * An apply of `config` by `manager` to `live`: the new object (undefined when nothing changes)
   * and the managers.
   */
  apply(
    live: unknown,
    config: unknown,
    version: string,
    managers: Managers,
    manager: string,
    force: boolean,
  ): { object: unknown; managers: Managers } {
    const atom = this.#o.atomFor(version);
    let next = merge(live, config, atom);
    const last = managers.get(manager);
    let set = toFieldSet(config, atom);
    const ignored = this.#o.ignored?.(version);
    if (ignored !== undefined) set = set.recursiveDifference(ignored);
    managers.set(manager, { set, apiVersion: version, applied: true });
    next = this.#prune(next, managers, manager, last);
    const r = this.#update(live, next, version, managers, manager, force);
    return { object: isSame(r.compare) ? undefined : next, managers: r.managers };
  }

  #prune(merged: unknown, managers: Managers, applying: string, last: VersionedSet | undefined): unknown {
    if (last === undefined || last.set.empty) return merged;
    this.#sets = new WeakMap();
    let converted: unknown;
    try {
      converted = this.#o.convert(merged, last.apiVersion);
    } catch (err) {
      if (err instanceof MissingVersion) return merged;
      throw err;
    }
    const atom = this.#o.atomFor(last.apiVersion);
    let pruned = removeItems(converted, ensureNamedFieldsAreMembers(last.set, atom), atom);
    pruned = this.#addBackOwned(converted, pruned, last.apiVersion, managers);
    pruned = this.#addBackDangling(converted, pruned, last);
    return this.#o.convert(pruned, managers.get(applying)!.apiVersion);
  }

  /** Puts back what other managers (and the applier's new configuration) own. */
  #addBackOwned(merged: unknown, pruned: unknown, prunedVersion: string, managers: Managers): unknown {
    const byVersion = new Map<string, FieldSet>();
    for (const vs of managers.values()) {
      byVersion.set(vs.apiVersion, (byVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
    }
    const order = [...byVersion.keys()].sort((a, b) =>
      a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0,
    );
    for (const version of order) {
      let m: unknown;
      let p: unknown;
      try {
        m = this.#o.convert(merged, version);
        p = this.#o.convert(pruned, version);
      } catch (err) {
        if (err instanceof MissingVersion) continue;
        throw err;
      }
      const atom = this.#o.atomFor(version);
      const mergedSet = this.#fieldSet(m, atom);
      const prunedSet = this.#fieldSet(p, atom);
      const managed = ensureNamedFieldsAreMembers(byVersion.get(version)!, atom);
      merged = m;
      pruned = removeItems(m, mergedSet.difference(prunedSet.union(managed)), atom);
    }
    return pruned;
  }

  /** Puts back fields the applier had applied that were not in the live object's managers' sets. */
  #addBackDangling(merged: unknown, pruned: unknown, last: VersionedSet): unknown {
    let p: unknown;
    try {
      p = this.#o.convert(pruned, last.apiVersion);
    } catch (err) {
      if (err instanceof MissingVersion) return merged;
      throw err;
    }
    const atom = this.#o.atomFor(last.apiVersion);
    const prunedSet = this.#fieldSet(p, atom);
    const mergedSet = this.#fieldSet(merged, atom);
    const lastSet = ensureNamedFieldsAreMembers(last.set, atom);
    return removeItems(merged, mergedSet.difference(prunedSet).intersection(lastSet), atom);
  }
}
