/**
 * Object <-> bytes for storage. Objects are stored as JSON without resourceVersion (the revision
 * is the resourceVersion, set on the way out), like kube-apiserver's etcd3 store.
 */
import type { KubeObject } from '../machinery/object.js';
import type { KeyValue } from './kv/types.js';
import { StorageError } from './errors.js';

/** etcd's default request size limit (1.5 MiB): larger objects are rejected like etcd does. */
export const maxObjectBytes = 1.5 * 1024 * 1024;

export function encodeObject(key: string, obj: KubeObject): Uint8Array {
  const rv = obj.metadata.resourceVersion;
  delete obj.metadata.resourceVersion;
  const text = JSON.stringify(obj);
  if (rv !== undefined) obj.metadata.resourceVersion = rv;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength > maxObjectBytes) {
    throw new StorageError('RequestTooLarge', key, 'etcdserver: request is too large');
  }
  return bytes;
}

export function decodeObject(kv: KeyValue): KubeObject {
  const text = Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8');
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StorageError('CorruptObject', kv.key, `stored object at ${kv.key} is not a JSON object`);
  }
  // Stored bytes were produced by encodeObject from a validated object.
  const obj = parsed as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}
