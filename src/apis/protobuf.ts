/** The protobuf serializer of every built-in kind, from the generated wire tables. */
import { protoPackages } from './generated/proto/index.js';
import { ProtoRegistry } from '../machinery/protobuf/registry.js';
import { KubeProtobuf } from '../machinery/protobuf/serializer.js';

export const builtinProtobuf = new KubeProtobuf(new ProtoRegistry(protoPackages));
