/** The protobuf serializer of every built-in kind, from the generated wire tables. */
import { protoPackages } from './generated/proto/index.js';
import { ProtoRegistry } from '../machinery/protobuf/registry.js';
import { KubeProtobuf } from '../machinery/protobuf/serializer.js';

/** kube-apiserver decodes built-in kinds with its legacy scheme, and names it in errors. */
export const builtinProtobuf = new KubeProtobuf(
  new ProtoRegistry(protoPackages),
  'pkg/api/legacyscheme/scheme.go:30',
);
