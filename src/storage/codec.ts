/**
 * Object <-> bytes for storage. Objects are stored without resourceVersion (the revision is the
 * resourceVersion, set on the way out), like kube-apiserver's etcd3 store: as JSON, or with
 * `--storage-media-type=application/vnd.kubernetes.protobuf` as Kubernetes protobuf (`k8s\0` and
 * a runtime.Unknown) for the kinds that have a protobuf form (custom resources stay JSON, as
 * upstream). Whatever the media type, both forms are read, so a store written with either (or by
 * kube-apiserver, whose default is protobuf) serves.
 */
import type { KubeObject } from '../machinery/object.js';
import type { JsonObject } from '../util/json.js';
import type { KeyValue } from './kv/types.js';
import { StorageError } from './errors.js';

/** etcd's default request size limit (1.5 MiB): larger objects are rejected like etcd does. */
export const maxObjectBytes = 1.5 * 1024 * 1024;

/** `obj` serialized without its resourceVersion (left as it was), refused when etcd would refuse it. */
function encodeWith(key: string, obj: KubeObject, serialize: (o: KubeObject) => Uint8Array): Uint8Array {
  const rv = obj.metadata.resourceVersion;
  delete obj.metadata.resourceVersion;
  let bytes: Uint8Array;
  try {
    bytes = serialize(obj);
  } finally {
    if (rv !== undefined) obj.metadata.resourceVersion = rv;
  }
  if (bytes.byteLength > maxObjectBytes) {
    throw new StorageError('RequestTooLarge', key, 'etcdserver: request is too large');
  }
  return bytes;
}

/** A decoded stored object with the key's revision as its resourceVersion. */
function withStoredRevision(obj: KubeObject, kv: KeyValue): KubeObject {
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

export function encodeObject(key: string, obj: KubeObject): Uint8Array {
  return encodeWith(key, obj, (o) => Buffer.from(JSON.stringify(o), 'utf8'));
}

export function decodeObject(kv: KeyValue): KubeObject {
  const text = Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8');
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StorageError('CorruptObject', kv.key, `stored object at ${kv.key} is not a JSON object`);
  }
  // Stored bytes were produced by encodeObject from a validated object.
  return withStoredRevision(parsed as KubeObject, kv);
}

/** How a store turns objects into bytes and back. */
export interface StorageCodec {
  encode(key: string, obj: KubeObject): Uint8Array;
  decode(kv: KeyValue): KubeObject;
}

/**
 * The protobuf serializer of the built-in kinds, given by the server (storage does not know the
 * API types): `decode` answers the object with its apiVersion and kind.
 */
export interface StorageProtobuf {
  supports(apiVersion: string, kind: string): boolean;
  encode(object: JsonObject): Uint8Array;
  decode(bytes: Uint8Array): JsonObject;
}

const protobufMagic = [0x6b, 0x38, 0x73, 0x00] as const;

function isProtobuf(value: Uint8Array): boolean {
  return value.byteLength > protobufMagic.length && protobufMagic.every((b, i) => value[i] === b);
}

/**
 * A codec writing JSON, or protobuf where `writeProtobuf` asks and the kind has it, and reading
 * both (protobuf only when `protobuf` is given).
 */
export function storageCodec(
  o: { readonly protobuf?: StorageProtobuf; readonly writeProtobuf?: boolean } = {},
): StorageCodec {
  const protobuf = o.protobuf;
  const writeProtobuf = o.writeProtobuf === true && protobuf !== undefined ? protobuf : undefined;
  return {
    encode(key, obj) {
      if (writeProtobuf === undefined) return encodeObject(key, obj);
      const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
      const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
      if (!writeProtobuf.supports(apiVersion, kind)) return encodeObject(key, obj);
      return encodeWith(key, obj, (o) => writeProtobuf.encode(o));
    },
    decode(kv) {
      if (!isProtobuf(kv.value)) return decodeObject(kv);
      if (protobuf === undefined) {
        throw new StorageError(
          'CorruptObject',
          kv.key,
          `stored object at ${kv.key} is protobuf, which this store does not read`,
        );
      }
      let parsed: JsonObject;
      try {
        parsed = protobuf.decode(kv.value);
      } catch (err) {
        throw new StorageError(
          'CorruptObject',
          kv.key,
          `stored object at ${kv.key} does not decode: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      // Decoded from bytes this codec wrote from a validated object.
      return withStoredRevision(parsed as unknown as KubeObject, kv);
    },
  };
}

/** JSON only: what a store uses unless given another codec. */
export const jsonStorageCodec: StorageCodec = storageCodec();
