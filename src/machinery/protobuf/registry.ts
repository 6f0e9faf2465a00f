/**
 * Compiled protobuf descriptors of the built-in messages: looked up by full proto name
 * (`k8s.io.api.core.v1.Pod`) or by an object's apiVersion and kind. Rows are compiled on first use,
 * so a server that never speaks protobuf pays only for the generated tables.
 */
import type { ProtoFieldRow, ProtoPackage } from './descriptor.js';

export interface ProtoField {
  readonly number: number;
  /** JSON name; "" when the message is inlined into the parent's JSON object. */
  readonly json: string;
  /** A scalar proto type or a full message name; for maps, the value type. */
  readonly type: string;
  /** For maps, the key's scalar type. */
  readonly keyType: string | undefined;
  readonly repeated: boolean;
  readonly map: boolean;
  /** A Go pointer: written only when set, kept in JSON whenever present. */
  readonly pointer: boolean;
  readonly omitempty: boolean;
  readonly inline: boolean;
}

export interface ProtoMessageType {
  readonly name: string;
  /** By field number, ascending: the order gogo-protobuf writes them. */
  readonly fields: readonly ProtoField[];
  /** In Go declaration order: the order encoding/json writes them. */
  readonly jsonOrder: readonly ProtoField[];
  readonly byNumber: ReadonlyMap<number, ProtoField>;
}

/** Kinds every group-version serves from meta/v1 (upstream's metav1.AddToGroupVersion). */
const metaKinds = new Set([
  'Status',
  'WatchEvent',
  'DeleteOptions',
  'ListOptions',
  'GetOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
  'APIVersions',
  'APIGroupList',
  'APIGroup',
  'APIResourceList',
]);
const metaPackage = 'k8s.io.apimachinery.pkg.apis.meta.v1';

function compileField(row: ProtoFieldRow): ProtoField {
  const [number, json, type, flags] = row;
  const map = /^map<(\w+),([\w.]+)>$/.exec(type);
  return {
    number,
    json,
    type: map === null ? type : map[2]!,
    keyType: map === null ? undefined : map[1],
    repeated: flags.includes('r'),
    map: flags.includes('k'),
    pointer: flags.includes('p'),
    omitempty: flags.includes('o'),
    inline: flags.includes('i'),
  };
}

export class ProtoRegistry {
  readonly #rows = new Map<string, readonly ProtoFieldRow[]>();
  readonly #compiled = new Map<string, ProtoMessageType>();
  readonly #packageOf = new Map<string, string>();
  #pending: readonly (ProtoPackage | (() => ProtoPackage))[];

  /** Packages, or functions making them: those are called on the first lookup. */
  constructor(packages: readonly (ProtoPackage | (() => ProtoPackage))[]) {
    this.#pending = packages;
  }

  #load(): void {
    if (this.#pending.length === 0) return;
    for (const entry of this.#pending) {
      const p = typeof entry === 'function' ? entry() : entry;
      if (p.groupVersion !== undefined) this.#packageOf.set(p.groupVersion, p.package);
      for (const [name, rows] of p.messages) this.#rows.set(name, rows);
    }
    this.#pending = [];
  }

  /** The message type of a full proto name, or undefined. */
  message(name: string): ProtoMessageType | undefined {
    let m = this.#compiled.get(name);
    if (m !== undefined) return m;
    this.#load();
    const rows = this.#rows.get(name);
    if (rows === undefined) return undefined;
    const jsonOrder = rows.map(compileField);
    const fields = [...jsonOrder].sort((a, b) => a.number - b.number);
    m = { name, fields, jsonOrder, byNumber: new Map(fields.map((f) => [f.number, f])) };
    this.#compiled.set(name, m);
    return m;
  }

  /** The full proto name of the message for an apiVersion and kind, if it is a built-in one. */
  messageNameFor(apiVersion: string, kind: string): string | undefined {
    this.#load();
    const pkg = this.#packageOf.get(apiVersion);
    if (pkg !== undefined && this.#rows.has(`${pkg}.${kind}`)) return `${pkg}.${kind}`;
    // meta.k8s.io/v1beta1's PartialObjectMetadata(List) are the v1 types.
    if (metaKinds.has(kind) || apiVersion === 'meta.k8s.io/v1' || apiVersion === 'meta.k8s.io/v1beta1') {
      const name = `${metaPackage}.${kind}`;
      if (this.#rows.has(name)) return name;
    }
    return undefined;
  }
}
