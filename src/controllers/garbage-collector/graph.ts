/**
 * The dependency graph of the garbage collector (upstream pkg/controller/garbagecollector
 * graph.go and graph_builder.go, v1.27): one node per uid, with the owner references its object
 * has and the nodes that name it as owner. Owners that were named but never observed are
 * "virtual" nodes until the API server confirms or denies them. Changes arrive as informer
 * events (and virtual delete events from the workers) and are applied synchronously, in order;
 * the builder tells the collector which uids to look at (attemptToDelete) and which owners'
 * dependents to orphan (attemptToOrphan).
 */
import type { ObjectMetadata, OwnerReference } from './metadata.js';

/** An object's coordinates (upstream objectReference). */
export interface ObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** '' for cluster-scoped objects (and for virtual owners of cluster-scoped dependents). */
  readonly namespace: string;
}

export function referenceString(r: ObjectReference): string {
  return `[${r.apiVersion}/${r.kind}, namespace: ${r.namespace}, name: ${r.name}, uid: ${r.uid}]`;
}

function sameReference(a: ObjectReference, b: ObjectReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.namespace === b.namespace
  );
}

/** An owner reference's coordinates match an identity's (uid, name, kind, apiVersion). */
export function ownerReferenceMatches(ref: OwnerReference, id: ObjectReference): boolean {
  return (
    ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion
  );
}

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export class GraphNode {
  identity: ObjectReference;
  readonly dependents = new Set<GraphNode>();
  owners: readonly OwnerReference[];
  /** Named as an owner but not (yet) observed through an informer. */
  virtual: boolean;
  beingDeleted: boolean;
  /** Being deleted with the foregroundDeletion finalizer: waits for its blocking dependents. */
  deletingDependents: boolean;

  constructor(o: {
    identity: ObjectReference;
    owners: readonly OwnerReference[];
    virtual: boolean;
    beingDeleted?: boolean;
    deletingDependents?: boolean;
  }) {
    this.identity = o.identity;
    this.owners = o.owners;
    this.virtual = o.virtual;
    this.beingDeleted = o.beingDeleted ?? false;
    this.deletingDependents = o.deletingDependents ?? false;
  }

  /** Dependents whose reference to this node has blockOwnerDeletion=true. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) =>
      d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true),
    );
  }
}

export type GraphEventType = 'add' | 'update' | 'delete';

export interface GraphEvent {
  readonly type: GraphEventType;
  /** The object's apiVersion/kind (the monitor's), not what the object says. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly meta: ObjectMetadata;
  readonly old?: ObjectMetadata;
  /** Made up by the collector (an object the API server does not have), not observed. */
  readonly virtual?: boolean;
}

export interface GraphBuilderOptions {
  /** Look at this uid (a possible garbage, or an owner waiting for its dependents). */
  readonly attemptToDelete: (uid: string, rateLimited?: boolean) => void;
  /** Orphan this owner's dependents, then drop its orphan finalizer. */
  readonly attemptToOrphan: (uid: string) => void;
  /** An ownerReference names an owner in another namespace (upstream's OwnerRefInvalidNamespace event). */
  readonly invalidNamespaceOwnerRef?: (dependent: ObjectReference, owner: ObjectReference) => void;
}

/** Objects known not to exist (upstream's absentOwnerCache, an LRU of 500). */
export class ReferenceCache {
  readonly #max: number;
  readonly #keys = new Map<string, true>();

  constructor(max = 500) {
    this.#max = max;
  }

  static key(r: ObjectReference): string {
    return JSON.stringify([r.apiVersion, r.kind, r.namespace, r.name, r.uid]);
  }

  add(r: ObjectReference): void {
    const k = ReferenceCache.key(r);
    this.#keys.delete(k);
    this.#keys.set(k, true);
    if (this.#keys.size > this.#max) {
      const oldest = this.#keys.keys().next();
      if (oldest.done !== true) this.#keys.delete(oldest.value);
    }
  }

  has(r: ObjectReference): boolean {
    const k = ReferenceCache.key(r);
    if (!this.#keys.has(k)) return false;
    this.#keys.delete(k);
    this.#keys.set(k, true);
    return true;
  }
}

function coordinates(ref: OwnerReference, namespace: string): ObjectReference {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

function sameOwnerReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

function referencesDiffs(
  old: readonly OwnerReference[],
  next: readonly OwnerReference[],
): {
  added: OwnerReference[];
  removed: OwnerReference[];
  changed: { old: OwnerReference; next: OwnerReference }[];
} {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { old: OwnerReference; next: OwnerReference }[] = [];
  for (const r of next) {
    const o = oldByUid.get(r.uid);
    if (o === undefined) {
      added.push(r);
      continue;
    }
    if (!sameOwnerReference(o, r)) changed.push({ old: o, next: r });
    oldByUid.delete(r.uid);
  }
  return { added, removed: [...oldByUid.values()], changed };
}

function hasFinalizer(m: ObjectMetadata | undefined, f: string): boolean {
  return m !== undefined && m.finalizers.includes(f);
}

/** The object starts being deleted with finalizer `f` (it was not, or did not have it, before). */
function deletionStartsWithFinalizer(old: ObjectMetadata | undefined, m: ObjectMetadata, f: string): boolean {
  if (m.deletionTimestamp === undefined || !hasFinalizer(m, f)) return false;
  if (old === undefined) return true;
  return old.deletionTimestamp === undefined || !hasFinalizer(old, f);
}

/**
 * Dependents whose reference to the owner's uid matches `owner` (and whose namespace can hold
 * it), and those with a reference to that uid that does not.
 */
function partitionDependents(
  dependents: Iterable<GraphNode>,
  owner: ObjectReference,
): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  const namespaced = owner.namespace !== '';
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (namespaced && owner.namespace !== dep.identity.namespace) {
      mismatch = true;
    } else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (ownerReferenceMatches(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

function referenceLessThan(a: ObjectReference, b: ObjectReference): boolean {
  if (a.kind !== b.kind) return a.kind < b.kind;
  if (a.apiVersion !== b.apiVersion) return a.apiVersion < b.apiVersion;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace;
  if (a.name !== b.name) return a.name < b.name;
  return a.uid < b.uid;
}

/**
 * Another identity dependents use for the uid of a verified-absent one: the first following it
 * in order, else the first (upstream getAlternateOwnerIdentity).
 */
function alternateOwnerIdentity(
  deps: Iterable<GraphNode>,
  absent: ObjectReference,
): ObjectReference | undefined {
  const clusterScoped = absent.namespace === '';
  const seen = new Set<string>([ReferenceCache.key(absent)]);
  let first: ObjectReference | undefined;
  let firstFollowing: ObjectReference | undefined;
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (
        ownerReferenceMatches(ref, absent) &&
        (clusterScoped || absent.namespace === dep.identity.namespace)
      ) {
        continue;
      }
      let alt = coordinates(ref, dep.identity.namespace);
      if (clusterScoped && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind) {
        alt = { ...alt, namespace: '' };
      }
      const k = ReferenceCache.key(alt);
      if (seen.has(k)) continue;
      seen.add(k);
      if (first === undefined || referenceLessThan(alt, first)) first = alt;
      if (
        referenceLessThan(absent, alt) &&
        (firstFollowing === undefined || referenceLessThan(alt, firstFollowing))
      ) {
        firstFollowing = alt;
      }
    }
  }
  return firstFollowing ?? first;
}

export class GraphBuilder {
  readonly #o: GraphBuilderOptions;
  readonly #nodes = new Map<string, GraphNode>();
  readonly absentOwnerCache = new ReferenceCache();

  constructor(o: GraphBuilderOptions) {
    this.#o = o;
  }

  node(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  get size(): number {
    return this.#nodes.size;
  }

  /** A made-up delete event for an object the API server does not have. */
  virtualDelete(ref: ObjectReference): void {
    this.process({
      type: 'delete',
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      virtual: true,
      meta: {
        uid: ref.uid,
        name: ref.name,
        namespace: ref.namespace,
        resourceVersion: '',
        ownerReferences: [],
        finalizers: [],
        deletionTimestamp: undefined,
      },
    });
  }

  /** Applies one change to the graph (upstream processGraphChanges). */
  process(ev: GraphEvent): void {
    const m = ev.meta;
    const observed: ObjectReference = {
      apiVersion: ev.apiVersion,
      kind: ev.kind,
      name: m.name,
      uid: m.uid,
      namespace: m.namespace,
    };
    const existing = this.#nodes.get(m.uid);
    if (existing !== undefined && ev.virtual !== true && existing.virtual) {
      // First observation of a node we only knew as an owner.
      if (!sameReference(observed, existing.identity)) {
        // Dependents that named it otherwise: let the workers check them (the owner may be
        // solid after all, then that is a no-op).
        const { nonmatching } = partitionDependents(existing.dependents, observed);
        for (const dep of nonmatching) {
          if (observed.namespace !== '' && dep.identity.namespace !== observed.namespace) {
            this.#reportInvalidNamespaceOwnerRef(dep, observed.uid);
          }
          this.#o.attemptToDelete(dep.identity.uid);
        }
        existing.identity = observed;
      }
      existing.virtual = false;
    }
    if (ev.type !== 'delete' && existing === undefined) {
      const n = new GraphNode({
        identity: observed,
        owners: m.ownerReferences,
        virtual: false,
        beingDeleted: m.deletionTimestamp !== undefined,
        deletingDependents: m.deletionTimestamp !== undefined && hasFinalizer(m, foregroundFinalizer),
      });
      this.#nodes.set(n.identity.uid, n);
      this.#addDependentToOwners(n, n.owners);
      this.#processTransitions(ev.old, m, n);
      return;
    }
    if (ev.type !== 'delete' && existing !== undefined) {
      if (
        ev.virtual !== true &&
        (existing.identity.apiVersion !== ev.apiVersion || existing.identity.kind !== ev.kind)
      ) {
        existing.identity = { ...existing.identity, apiVersion: ev.apiVersion, kind: ev.kind };
      }
      const { added, removed, changed } = referencesDiffs(existing.owners, m.ownerReferences);
      if (added.length > 0 || removed.length > 0 || changed.length > 0) {
        // Owners waiting for their dependents may be unblocked now.
        this.#addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = m.ownerReferences;
        this.#addDependentToOwners(existing, added);
        this.#removeDependentFromOwners(existing, removed);
      }
      if (m.deletionTimestamp !== undefined) existing.beingDeleted = true;
      this.#processTransitions(ev.old, m, existing);
      return;
    }
    // delete
    if (existing === undefined) return;
    let removeExisting = true;
    if (ev.virtual === true) {
      const deleted = observed;
      if (existing.virtual) {
        // Not sure of its coordinates: do dependents name this uid otherwise?
        const { matching, nonmatching } = partitionDependents(existing.dependents, deleted);
        if (nonmatching.length > 0) {
          removeExisting = false;
          if (matching.length > 0) {
            this.absentOwnerCache.add(deleted);
            for (const dep of matching) this.#o.attemptToDelete(dep.identity.uid);
          }
          if (sameReference(existing.identity, deleted)) {
            const replacement = alternateOwnerIdentity(nonmatching, deleted);
            if (replacement !== undefined) {
              existing.identity = replacement;
              this.#o.attemptToDelete(existing.identity.uid, true);
            }
          }
        }
      } else if (!sameReference(existing.identity, deleted)) {
        // A real node is not removed by a virtual event for other coordinates.
        removeExisting = false;
        const { matching } = partitionDependents(existing.dependents, deleted);
        if (matching.length > 0) {
          this.absentOwnerCache.add(deleted);
          for (const dep of matching) this.#o.attemptToDelete(dep.identity.uid);
        }
      }
    }
    if (!removeExisting) return;
    this.#nodes.delete(existing.identity.uid);
    this.#removeDependentFromOwners(existing, existing.owners);
    if (existing.dependents.size > 0) this.absentOwnerCache.add(observed);
    for (const dep of existing.dependents) this.#o.attemptToDelete(dep.identity.uid);
    for (const owner of existing.owners) {
      const ownerNode = this.#nodes.get(owner.uid);
      // An owner waiting for its dependents may be done now.
      if (ownerNode?.deletingDependents === true) this.#o.attemptToDelete(ownerNode.identity.uid);
    }
  }

  #processTransitions(old: ObjectMetadata | undefined, m: ObjectMetadata, n: GraphNode): void {
    if (deletionStartsWithFinalizer(old, m, orphanFinalizer)) {
      this.#o.attemptToOrphan(n.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(old, m, foregroundFinalizer)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.#o.attemptToDelete(dep.identity.uid);
      this.#o.attemptToDelete(n.identity.uid);
    }
  }

  #addUnblockedOwnersToDeleteQueue(
    removed: readonly OwnerReference[],
    changed: readonly { old: OwnerReference; next: OwnerReference }[],
  ): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      if (this.#nodes.has(ref.uid)) this.#o.attemptToDelete(ref.uid);
    }
    for (const c of changed) {
      if (
        c.old.blockOwnerDeletion === true &&
        c.next.blockOwnerDeletion !== true &&
        this.#nodes.has(c.next.uid)
      ) {
        this.#o.attemptToDelete(c.next.uid);
      }
    }
  }

  /**
   * Adds `n` to its owners' dependents, creating virtual owners (checked by the workers) for
   * owners not seen yet, and sends `n` to the workers when a reference looks wrong.
   */
  #addDependentToOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    let potentiallyInvalid = false;
    let ownerDeleting = false;
    for (const owner of owners) {
      let ownerNode = this.#nodes.get(owner.uid);
      if (ownerNode === undefined) {
        ownerNode = new GraphNode({
          identity: coordinates(owner, n.identity.namespace),
          owners: [],
          virtual: true,
        });
        this.#nodes.set(owner.uid, ownerNode);
        ownerNode.dependents.add(n);
        this.#o.attemptToDelete(owner.uid);
        continue;
      }
      ownerNode.dependents.add(n);
      // An owner already deleting its dependents in the foreground: a dependent seen only now
      // (its informer lagged the owner's) must be collected too, or the owner's dependents
      // would outlive it.
      if (ownerNode.deletingDependents) ownerDeleting = true;
      if (potentiallyInvalid) continue;
      const ownerNamespaced = ownerNode.identity.namespace !== '';
      if (ownerNamespaced && ownerNode.identity.namespace !== n.identity.namespace) {
        // A namespaced owner can only own objects of its own namespace.
        if (!ownerNode.virtual) this.#reportInvalidNamespaceOwnerRef(n, owner.uid);
        potentiallyInvalid = true;
      } else if (!ownerReferenceMatches(owner, ownerNode.identity)) {
        potentiallyInvalid = true;
      } else if (
        !ownerNamespaced &&
        ownerNode.identity.namespace !== n.identity.namespace &&
        ownerNode.virtual
      ) {
        // A virtual cluster-scoped owner named from a namespace it is not in: may be a missing
        // namespaced owner wrongly named by a cluster-scoped dependent.
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid || ownerDeleting) this.#o.attemptToDelete(n.identity.uid);
  }

  #removeDependentFromOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    for (const owner of owners) this.#nodes.get(owner.uid)?.dependents.delete(n);
  }

  #reportInvalidNamespaceOwnerRef(n: GraphNode, ownerUid: string): void {
    const ref = n.owners.find((o) => o.uid === ownerUid);
    if (ref === undefined) return;
    this.#o.invalidNamespaceOwnerRef?.(n.identity, coordinates(ref, n.identity.namespace));
  }
}
