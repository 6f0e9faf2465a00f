/**
 * `--storage-media-type`: kube-apiserver's flag for how objects are stored. The protobuf form of
 * the built-in kinds is the one the API serves (`application/vnd.kubernetes.protobuf`).
 */
import { builtinProtobuf } from '../../apis/protobuf.js';
import type { StorageProtobuf } from '../../storage/codec.js';

export type StorageMediaType = 'application/json' | 'application/vnd.kubernetes.protobuf';

export const builtinStorageProtobuf: StorageProtobuf = {
  supports: (apiVersion, kind) => builtinProtobuf.supports(apiVersion, kind),
  encode: (object) => builtinProtobuf.encode(object),
  decode: (bytes) => builtinProtobuf.decode(bytes).object,
};
