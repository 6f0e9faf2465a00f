/**
 * The schema machinery custom resources are served with: structural-schema validation, pruning and
 * defaulting, CEL validation rules, and the OpenAPI definitions of each served version.
 */
import type { Definition } from '../../apis/schema/types.js';
import type { CrdVersion, CrdView } from '../../registry/customresources/crd-view.js';
import { customResourceDefinitionName, noSchemaOps } from '../../registry/customresources/resource.js';
import type { CustomResourceSchemas } from './custom-resources.js';

export function customResourceSchemas(): CustomResourceSchemas {
  return { ops: noSchemaOps, decoding: { prune: () => [], defaults: () => {} } };
}

export function customResourceDefinitions(view: CrdView, version: CrdVersion): Definition[] {
  const kind = view.acceptedNames.kind;
  const name = customResourceDefinitionName(view.group, version.name, kind);
  const gvk = [{ group: view.group, version: version.name, kind }];
  return [
    {
      name,
      gvk,
      schema: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
        },
        additionalProperties: true,
      },
    },
    {
      name: customResourceDefinitionName(view.group, version.name, view.acceptedNames.listKind),
      gvk: [{ group: view.group, version: version.name, kind: view.acceptedNames.listKind }],
      schema: {
        type: 'object',
        required: ['items'],
        properties: {
          apiVersion: { type: 'string' },
          items: { type: 'array', items: { ref: name } },
          kind: { type: 'string' },
          metadata: { ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
        },
      },
    },
  ];
}
