/**
 * The protobuf wire facts of built-in messages, as scripts/gen-protobuf.mjs generates them from
 * upstream's generated.proto files and Go types (src/apis/generated/proto/).
 */

/** Scalar proto types Kubernetes messages use. */
export type ProtoScalar = 'string' | 'bytes' | 'int32' | 'int64' | 'bool' | 'double';

/**
 * One field: [number, JSON name ("" when its message is inlined into the parent's JSON), proto
 * type (a scalar, a full message name, or `map<K,V>`), flags]. Flags: `r` repeated, `k` map, `p` a
 * Go pointer (written only when set), `o` omitempty in JSON, `i` inlined in JSON.
 */
export type ProtoFieldRow = readonly [number, string, string, string];

/** One generated.proto package. */
export interface ProtoPackage {
  /** e.g. `k8s.io.api.core.v1`. */
  readonly package: string;
  /** The API group/version whose kinds live here (`v1`, `apps/v1`), if any. */
  readonly groupVersion: string | undefined;
  readonly messages: readonly (readonly [string, readonly ProtoFieldRow[]])[];
}
