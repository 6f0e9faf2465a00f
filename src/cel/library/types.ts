// The opaque object types of the Kubernetes libraries, as protobuf messages so that
// @bufbuild/cel can carry them as values, dispatch methods on them and name them in type():
// kubernetes.URL (apiserver pkg/cel/url.go) and kubernetes.authorization.{Authorizer, PathCheck,
// GroupCheck, ResourceCheck, Decision} (pkg/cel/library/authz.go). Their fields hold our state;
// CEL programs cannot construct them (the type checker knows them only as opaque types).
import { create, createFileRegistry, type DescMessage, type Registry } from '@bufbuild/protobuf';
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
} from '@bufbuild/protobuf/wkt';

const { STRING, BOOL, INT32 } = FieldDescriptorProto_Type;

function field(name: string, number: number, type: FieldDescriptorProto_Type) {
  return { name, number, type, label: FieldDescriptorProto_Label.OPTIONAL, jsonName: name };
}

const subject = [
  field('saNamespace', 1, STRING),
  field('saName', 2, STRING),
  field('isServiceAccount', 3, BOOL),
];

const urlFile = create(FileDescriptorProtoSchema, {
  name: 'nanokube/cel/kubernetes_url.proto',
  package: 'kubernetes',
  syntax: 'proto3',
  messageType: [{ name: 'URL', field: [field('raw', 1, STRING)] }],
});

const authzFile = create(FileDescriptorProtoSchema, {
  name: 'nanokube/cel/kubernetes_authorization.proto',
  package: 'kubernetes.authorization',
  syntax: 'proto3',
  messageType: [
    { name: 'Authorizer', field: subject },
    { name: 'PathCheck', field: [...subject, field('path', 4, STRING)] },
    { name: 'GroupCheck', field: [...subject, field('group', 4, STRING)] },
    {
      name: 'ResourceCheck',
      field: [
        ...subject,
        field('group', 4, STRING),
        field('resource', 5, STRING),
        field('subresource', 6, STRING),
        field('namespace', 7, STRING),
        field('name', 8, STRING),
      ],
    },
    {
      name: 'Decision',
      field: [field('decision', 1, INT32), field('reason', 2, STRING)],
    },
  ],
});

const urlRegistry = createFileRegistry(urlFile, () => undefined);
const authzRegistry = createFileRegistry(authzFile, () => undefined);

/** A registry with the library types, for celEnv({ registry }). */
export const libraryRegistry: Registry = createFileRegistry(urlRegistry, authzRegistry);

function message(name: string): DescMessage {
  const desc = libraryRegistry.getMessage(name);
  if (desc === undefined) throw new Error(`missing library type ${name}`);
  return desc;
}

export const URL_TYPE = message('kubernetes.URL');
export const AUTHORIZER_TYPE = message('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = message('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = message('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = message('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = message('kubernetes.authorization.Decision');
