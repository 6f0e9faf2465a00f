import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { ServerSchemaRegistry } from '../../apis/schema/server-registry.js';
import type { Definition } from '../../apis/schema/types.js';
import { renderDefinition, renderDefinitions } from './schema-json.js';

const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A custom resource kind as registry/customresources/definitions.ts builds one. */
const widget: Definition = {
  name: 'com.example.v1.Widget',
  schema: {
    type: 'object',
    properties: { metadata: { ref: objectMeta }, size: { type: 'integer' } },
  },
  gvk: [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
  rendered: {
    v2: { type: 'object', properties: { metadata: { $ref: `#/definitions/${objectMeta}` } } },
    v3: {
      type: 'object',
      properties: {
        metadata: { $ref: `#/components/schemas/${objectMeta}` },
        size: { type: 'integer', minimum: 1 },
      },
    },
  },
};

describe('schema-json: prerendered definitions', () => {
  it('a definition with `rendered` is published as given, per document', () => {
    assert.equal(renderDefinition(widget, 2), widget.rendered!.v2);
    assert.equal(renderDefinition(widget, 3), widget.rendered!.v3);
  });

  it('its closure still follows the model, so ObjectMeta and what it reaches are published', () => {
    const registry = new ServerSchemaRegistry(() => builtinSchemas());
    registry.add([widget]);
    const defs = renderDefinitions(registry, [widget.name], 3);
    assert.equal(defs[widget.name], widget.rendered!.v3);
    assert.ok(defs[objectMeta] !== undefined);
    assert.ok(defs['io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'] !== undefined);
  });
});
