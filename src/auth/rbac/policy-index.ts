/**
 * The RBAC objects the authorizer reads, held in memory (upstream's informer listers): roles by
 * namespace and name, cluster roles by name, and bindings indexed by the subjects they name, so
 * a request looks only at the bindings that can apply to its user. Whoever owns storage keeps it
 * current (`nanokube serve` feeds it from storage watches); auth/ never reads storage itself.
 */
import type { BindingView, RoleView, Subject } from '../../apis/rbac/v1/evaluation.js';

/** Where an RBAC object changed, as the feeder reports it. */
export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

const saPrefix = 'system:serviceaccount:';

/** The keys a subject is found under ('' when it can never apply). */
function subjectKey(s: Subject, bindingNamespace: string): string {
  switch (s.kind) {
    case 'User':
      return `u:${s.name}`;
    case 'Group':
      return `g:${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace !== '' ? s.namespace : bindingNamespace;
      return ns === '' ? '' : `u:${saPrefix}${ns}:${s.name}`;
    }
    default:
      return '';
  }
}

/** Bindings of one scope, by name and by subject key. */
class BindingSet {
  readonly #byName = new Map<string, BindingView>();
  readonly #bySubject = new Map<string, Set<string>>();

  set(b: BindingView): void {
    this.delete(b.name);
    this.#byName.set(b.name, b);
    for (const s of b.subjects) {
      const key = subjectKey(s, b.namespace);
      if (key === '') continue;
      let names = this.#bySubject.get(key);
      if (names === undefined) this.#bySubject.set(key, (names = new Set()));
      names.add(b.name);
    }
  }

  delete(name: string): void {
    const old = this.#byName.get(name);
    if (old === undefined) return;
    this.#byName.delete(name);
    for (const s of old.subjects) {
      const key = subjectKey(s, old.namespace);
      const names = this.#bySubject.get(key);
      names?.delete(name);
      if (names?.size === 0) this.#bySubject.delete(key);
    }
  }

  get size(): number {
    return this.#byName.size;
  }

  clear(): void {
    this.#byName.clear();
    this.#bySubject.clear();
  }

  /** The bindings naming any of `keys`, by name. */
  matching(keys: readonly string[]): BindingView[] {
    const names = new Set<string>();
    for (const k of keys) for (const n of this.#bySubject.get(k) ?? []) names.add(n);
    return [...names].sort().map((n) => this.#byName.get(n)!);
  }
}

export class RbacPolicyIndex {
  readonly #roles = new Map<string, RoleView>();
  readonly #clusterRoles = new Map<string, RoleView>();
  readonly #clusterRoleBindings = new BindingSet();
  readonly #roleBindings = new Map<string, BindingSet>();

  setRole(r: RoleView): void {
    this.#roles.set(`${r.namespace}/${r.name}`, r);
  }
  deleteRole(namespace: string, name: string): void {
    this.#roles.delete(`${namespace}/${name}`);
  }
  setClusterRole(r: RoleView): void {
    this.#clusterRoles.set(r.name, r);
  }
  deleteClusterRole(name: string): void {
    this.#clusterRoles.delete(name);
  }
  setClusterRoleBinding(b: BindingView): void {
    this.#clusterRoleBindings.set(b);
  }
  deleteClusterRoleBinding(name: string): void {
    this.#clusterRoleBindings.delete(name);
  }
  setRoleBinding(b: BindingView): void {
    let set = this.#roleBindings.get(b.namespace);
    if (set === undefined) this.#roleBindings.set(b.namespace, (set = new BindingSet()));
    set.set(b);
  }
  deleteRoleBinding(namespace: string, name: string): void {
    const set = this.#roleBindings.get(namespace);
    set?.delete(name);
    if (set?.size === 0) this.#roleBindings.delete(namespace);
  }

  /** Forgets every object of one kind (before a relist refills it). */
  clear(kind: RbacKind): void {
    if (kind === 'Role') this.#roles.clear();
    else if (kind === 'ClusterRole') this.#clusterRoles.clear();
    else if (kind === 'RoleBinding') this.#roleBindings.clear();
    else this.#clusterRoleBindings.clear();
  }

  getRole(namespace: string, name: string): RoleView | undefined {
    return this.#roles.get(`${namespace}/${name}`);
  }
  getClusterRole(name: string): RoleView | undefined {
    return this.#clusterRoles.get(name);
  }
  clusterRoles(): RoleView[] {
    return [...this.#clusterRoles.values()];
  }

  /** The keys a user is found under: its name and each of its groups. */
  static keysOf(user: { readonly name: string; readonly groups: readonly string[] }): string[] {
    return [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];
  }

  clusterRoleBindingsFor(keys: readonly string[]): BindingView[] {
    return this.#clusterRoleBindings.matching(keys);
  }
  roleBindingsFor(namespace: string, keys: readonly string[]): BindingView[] {
    return this.#roleBindings.get(namespace)?.matching(keys) ?? [];
  }
}
