import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { ServerSchemaRegistry } from '../../apis/schema/server-registry.js';
import type { Definition, ObjectSchema, Schema } from '../../apis/schema/types.js';
import { TypeModel } from '../../machinery/typed/atom.js';
import { toFieldSet, validate } from '../../machinery/typed/walk.js';
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { crdView } from './crd-view.js';
import { customResourceDefinitionName, customResourceDefinitions } from './definitions.js';
import { loadRe2 } from '../../util/re2.js';

// RE2 is loaded on first use; these tests call the schema checks directly.
await loadRe2();

const cronTabSchema: JsonObject = {
  type: 'object',
  description: 'A CronTab runs a command on a schedule.',
  required: ['spec'],
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    spec: {
      type: 'object',
      description: 'What to run and when.',
      required: ['cronSpec', 'note'],
      'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'too many' }],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string', enum: ['nginx', 'busybox'] },
        replicas: { type: 'integer', format: 'int32', minimum: 1, maximum: 10, default: 1 },
        maxSurge: { 'x-kubernetes-int-or-string': true },
        maxUnavailable: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
          pattern: '^\\d+%?$',
        },
        partition: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 5 }, { pattern: '%$' }] },
        note: { type: 'string', nullable: true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: { app: { type: 'string' } },
        },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            required: ['port'],
            properties: {
              port: { type: 'integer' },
              protocol: { type: 'string', default: 'TCP' },
              name: { type: 'string' },
            },
          },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        raw: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        extra: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        anything: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { count: { type: 'integer' } } },
  },
};

function crd(schemas: Record<string, JsonObject | undefined>, extra: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com', uid: 'u1' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      versions: Object.entries(schemas).map(([name, s], i) => ({
        name,
        served: true,
        storage: i === 0,
        ...(s === undefined ? {} : { schema: { openAPIV3Schema: s } }),
      })),
      ...extra,
    },
    status: {
      acceptedNames: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
    },
  };
}

function definitionsOf(schema: JsonObject | undefined, extra: JsonObject = {}): [Definition, Definition] {
  const view = crdView(crd({ v1: schema }, extra));
  const [kind, list] = customResourceDefinitions(view, view.versions[0]!);
  assert.ok(kind !== undefined && list !== undefined);
  return [kind, list];
}

/** The JSON object at a path of property names, `[]` (items) and `*` (additionalProperties). */
function at(doc: JsonValue | undefined, ...path: string[]): JsonObject {
  let cur: JsonValue | undefined = doc;
  for (const step of path) {
    assert.ok(isJsonObject(cur), `no object before ${step}`);
    cur =
      step === '[]'
        ? cur['items']
        : step === '*'
          ? cur['additionalProperties']
          : (cur['properties'] as JsonObject)[step];
  }
  assert.ok(isJsonObject(cur), `nothing at ${path.join('.')}`);
  return cur;
}

function objectOf(s: Schema | undefined): ObjectSchema {
  assert.ok(s !== undefined && 'type' in s && s.type === 'object');
  return s;
}

const gvk = (kind: string): JsonValue => [{ group: 'stable.example.com', kind, version: 'v1' }];

/**
 * The definition a property with its own description refers to: `$ref` beside the description in
 * v2; wrapped in `allOf` in v3, where siblings of `$ref` are ignored (as upstream publishes it).
 */
function refOf(s: JsonObject, prefix: string): unknown {
  if (prefix.startsWith('#/definitions/')) {
    assert.equal(s['allOf'], undefined);
    return s['$ref'];
  }
  assert.equal(s['$ref'], undefined);
  const allOf = s['allOf'] as JsonObject[];
  assert.equal(allOf.length, 1);
  return allOf[0]!['$ref'];
}

describe('custom resource OpenAPI definitions', () => {
  const [kind, list] = definitionsOf(cronTabSchema);
  const v2 = kind.rendered!.v2;
  const v3 = kind.rendered!.v3;

  it('names the kind and list as util.ToRESTFriendlyName does', () => {
    assert.equal(kind.name, 'com.example.stable.v1.CronTab');
    assert.equal(list.name, 'com.example.stable.v1.CronTabList');
    assert.equal(customResourceDefinitionName('example', 'v2', 'Foo'), 'example.v2.Foo');
    assert.deepEqual(kind.gvk, [{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
    assert.deepEqual(list.gvk, [{ group: 'stable.example.com', version: 'v1', kind: 'CronTabList' }]);
    // The accepted names, as the endpoints serve them, while a renamed kind waits for acceptance.
    const renamed = crd({ v1: cronTabSchema });
    (renamed['spec'] as JsonObject)['names'] = { plural: 'crontabs', kind: 'Tab', listKind: 'Tabs' };
    const view = crdView(renamed);
    assert.deepEqual(
      customResourceDefinitions(view, view.versions[0]!).map((d) => d.name),
      ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList'],
    );
  });

  it('root: the user schema plus apiVersion, kind and metadata (a ref), keys in Go order', () => {
    for (const [doc, prefix] of [
      [v2, '#/definitions/'],
      [v3, '#/components/schemas/'],
    ] as const) {
      assert.deepEqual(Object.keys(doc), [
        'description',
        'type',
        'required',
        'properties',
        'x-kubernetes-group-version-kind',
      ]);
      assert.equal(doc['description'], 'A CronTab runs a command on a schedule.');
      assert.deepEqual(Object.keys(doc['properties'] as JsonObject), [
        'apiVersion',
        'kind',
        'metadata',
        'spec',
        'status',
      ]);
      assert.deepEqual(Object.keys(at(doc, 'metadata')), [
        'description',
        prefix.startsWith('#/definitions/') ? '$ref' : 'allOf',
      ]);
      assert.equal(
        refOf(at(doc, 'metadata'), prefix),
        `${prefix}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`,
      );
      assert.equal(at(doc, 'apiVersion')['type'], 'string');
      assert.equal(at(doc, 'kind')['type'], 'string');
      assert.deepEqual(doc['x-kubernetes-group-version-kind'], gvk('CronTab'));
      assert.equal(at(doc, 'spec')['description'], 'What to run and when.');
      assert.deepEqual(at(doc, 'spec')['x-kubernetes-validations'], [
        { rule: 'self.replicas <= 10', message: 'too many' },
      ]);
      assert.equal(at(doc, 'spec', 'cronSpec')['pattern'], at(cronTabSchema, 'spec', 'cronSpec')['pattern']);
      assert.deepEqual(at(doc, 'spec', 'image')['enum'], ['nginx', 'busybox']);
      assert.deepEqual(at(doc, 'spec', 'labels', '*'), { type: 'string' });
      assert.deepEqual(at(doc, 'spec', 'selector')['x-kubernetes-map-type'], 'atomic');
      assert.deepEqual(at(doc, 'spec', 'ports')['x-kubernetes-list-map-keys'], ['port', 'protocol']);
      assert.equal(at(doc, 'spec', 'ports')['x-kubernetes-list-type'], 'map');
    }
  });

  it('v3 keeps defaults, nullable and the unfolded int-or-string; v2 drops them as ToStructuralOpenAPIV2', () => {
    assert.deepEqual(at(v3, 'spec', 'replicas'), {
      type: 'integer',
      format: 'int32',
      default: 1,
      maximum: 10,
      minimum: 1,
    });
    assert.deepEqual(at(v2, 'spec', 'replicas'), {
      type: 'integer',
      format: 'int32',
      maximum: 10,
      minimum: 1,
    });
    assert.deepEqual(at(v3, 'spec', 'maxSurge'), {
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    assert.deepEqual(at(v2, 'spec', 'maxSurge'), { 'x-kubernetes-int-or-string': true });
    // Already spelled out: kept as written.
    assert.deepEqual(at(v3, 'spec', 'maxUnavailable'), {
      pattern: '^\\d+%?$',
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    assert.deepEqual(at(v2, 'spec', 'maxUnavailable'), {
      pattern: '^\\d+%?$',
      'x-kubernetes-int-or-string': true,
    });
    // Another anyOf: the integer / string choice goes first in allOf.
    assert.deepEqual(at(v3, 'spec', 'partition'), {
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
      anyOf: [{ maximum: 5 }, { pattern: '%$' }],
      'x-kubernetes-int-or-string': true,
    });
    assert.deepEqual(at(v2, 'spec', 'partition'), { 'x-kubernetes-int-or-string': true });
    assert.deepEqual(at(v3, 'spec', 'note'), { type: 'string', nullable: true });
    assert.deepEqual(at(v2, 'spec', 'note'), {});
    // A nullable field is no longer required in v2.
    assert.deepEqual(at(v3, 'spec')['required'], ['cronSpec', 'note']);
    assert.deepEqual(at(v2, 'spec')['required'], ['cronSpec']);
  });

  it('preserve-unknown-fields: v3 as written; v2 without type, properties or items', () => {
    assert.deepEqual(at(v3, 'spec', 'extra'), {
      type: 'object',
      properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
      'x-kubernetes-preserve-unknown-fields': true,
    });
    assert.deepEqual(at(v2, 'spec', 'extra'), { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(at(v3, 'spec', 'anything'), { 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('embedded resources get apiVersion, kind, metadata and required kind/apiVersion (not in v2 with preserve)', () => {
    for (const [doc, prefix] of [
      [v2, '#/definitions/'],
      [v3, '#/components/schemas/'],
    ] as const) {
      const t = at(doc, 'spec', 'template');
      assert.deepEqual(t['required'], ['kind', 'apiVersion']);
      assert.deepEqual(Object.keys(t['properties'] as JsonObject), [
        'apiVersion',
        'kind',
        'metadata',
        'spec',
      ]);
      assert.equal(
        refOf(at(t, 'metadata'), prefix),
        `${prefix}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`,
      );
      assert.equal(t['x-kubernetes-embedded-resource'], true);
    }
    assert.deepEqual(at(v2, 'spec', 'raw'), {
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    });
    const raw3 = at(v3, 'spec', 'raw');
    assert.equal(raw3['type'], 'object');
    assert.deepEqual(raw3['required'], ['kind', 'apiVersion']);
    assert.deepEqual(Object.keys(raw3['properties'] as JsonObject), ['apiVersion', 'kind', 'metadata']);
  });

  it('the list kind: items of the kind, ListMeta, required items', () => {
    for (const [doc, prefix] of [
      [list.rendered!.v2, '#/definitions/'],
      [list.rendered!.v3, '#/components/schemas/'],
    ] as const) {
      assert.deepEqual(Object.keys(doc), [
        'description',
        'type',
        'required',
        'properties',
        'x-kubernetes-group-version-kind',
      ]);
      assert.deepEqual(doc['required'], ['items']);
      assert.deepEqual(Object.keys(doc['properties'] as JsonObject), [
        'apiVersion',
        'items',
        'kind',
        'metadata',
      ]);
      assert.deepEqual(at(doc, 'items', '[]'), { $ref: `${prefix}com.example.stable.v1.CronTab` });
      assert.equal(
        refOf(at(doc, 'metadata'), prefix),
        `${prefix}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta`,
      );
      assert.deepEqual(doc['x-kubernetes-group-version-kind'], gvk('CronTabList'));
    }
  });

  it('a root that preserves unknown fields is a bare object in v2 only', () => {
    const [k] = definitionsOf({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(k.rendered!.v2, { type: 'object', 'x-kubernetes-group-version-kind': gvk('CronTab') });
    assert.deepEqual(Object.keys(at(k.rendered!.v3)['properties'] as JsonObject), [
      'apiVersion',
      'kind',
      'metadata',
    ]);
    assert.equal(k.rendered!.v3['x-kubernetes-preserve-unknown-fields'], true);
    assert.deepEqual(k.schema, {
      type: 'object',
      additionalProperties: true,
      properties: {
        apiVersion: { type: 'string', description: at(k.rendered!.v3, 'apiVersion')['description'] },
        kind: { type: 'string', description: at(k.rendered!.v3, 'kind')['description'] },
        metadata: {
          ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
          description: at(k.rendered!.v3, 'metadata')['description'],
        },
      },
    });
  });

  it('no schema, or a non-structural one: a free-form object', () => {
    for (const schema of [
      undefined,
      { type: 'object', properties: { a: {} } },
      { type: 'object', properties: { a: { type: 'date' } } },
    ]) {
      const [k] = definitionsOf(schema);
      assert.deepEqual(k.rendered!.v2, { type: 'object', 'x-kubernetes-group-version-kind': gvk('CronTab') });
      assert.deepEqual(k.rendered!.v3, { type: 'object', 'x-kubernetes-group-version-kind': gvk('CronTab') });
      assert.deepEqual(k.schema, { type: 'object', additionalProperties: true });
    }
  });

  it('the model: our schema types with list, map and preserve semantics, no required', () => {
    const root = objectOf(kind.schema);
    assert.equal(root.required, undefined);
    const spec = objectOf(root.properties?.['spec']);
    assert.equal(spec.additionalProperties, undefined);
    assert.equal(spec.description, 'What to run and when.');
    const p = spec.properties!;
    assert.deepEqual(p['replicas'], { type: 'integer', format: 'int32', default: 1 });
    assert.deepEqual(p['maxSurge'], { type: 'int-or-string' });
    assert.deepEqual(p['image'], { type: 'string', enum: ['nginx', 'busybox'] });
    assert.deepEqual(p['labels'], { type: 'object', additionalProperties: { type: 'string' } });
    assert.deepEqual(p['selector'], {
      type: 'object',
      mapType: 'atomic',
      properties: { app: { type: 'string' } },
    });
    assert.deepEqual(p['tags'], { type: 'array', items: { type: 'string' }, listType: 'set' });
    const ports = p['ports'];
    assert.ok(ports !== undefined && 'type' in ports && ports.type === 'array');
    assert.equal(ports.listType, 'map');
    assert.deepEqual(ports.listMapKeys, ['port', 'protocol']);
    assert.deepEqual(p['anything'], { type: 'any', preserveUnknownFields: true });
    // Preserve-unknown-fields reaches every object below (schemaconv's inherited flag).
    const extra = objectOf(p['extra']);
    assert.equal(extra.additionalProperties, true);
    assert.equal(objectOf(extra.properties?.['known']).additionalProperties, true);
    const template = objectOf(p['template']);
    assert.deepEqual(Object.keys(template.properties ?? {}).sort(), [
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
    const raw = objectOf(p['raw']);
    assert.equal(raw.additionalProperties, true);
    assert.deepEqual(raw.properties?.['metadata'], {
      ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      description: at(v3, 'metadata')['description'],
    });
    assert.deepEqual(objectOf(list.schema).required, ['items']);
  });

  it('server-side apply: a type model from a registry holding the definitions', () => {
    const registry = new ServerSchemaRegistry(() => builtinSchemas());
    const view = crdView(crd({ v1: cronTabSchema, v2: cronTabSchema }));
    for (const v of view.versions) registry.add(customResourceDefinitions(view, v));
    const model = new TypeModel(registry);
    const atom = model.definition('com.example.stable.v1.CronTab');
    assert.ok(atom !== undefined);
    // An unstructured object's zero value is empty whatever the schema requires.
    assert.deepEqual(model.zero('com.example.stable.v1.CronTab'), {});
    const obj = {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'c', labels: { a: 'b' } },
      spec: {
        cronSpec: '* * * * */5',
        replicas: 2,
        maxSurge: '25%',
        maxUnavailable: 1,
        labels: { x: 'y' },
        selector: { app: 'a' },
        ports: [{ port: 80 }, { port: 80, protocol: 'UDP', name: 'u' }],
        tags: ['t1'],
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { l: 'v' } }, spec: { x: 'y' } },
        raw: { apiVersion: 'v1', kind: 'X', whatever: { deep: true } },
        extra: { known: { a: 'x', unknown: 1 }, other: [1, 2] },
        anything: { k: [1] },
      },
    };
    validate(obj, atom);
    assert.equal(
      JSON.stringify(toFieldSet(obj, atom).toFieldsV1()),
      JSON.stringify({
        'f:apiVersion': {},
        'f:kind': {},
        'f:metadata': { 'f:labels': { 'f:a': {} }, 'f:name': {} },
        'f:spec': {
          'f:anything': { 'f:k': {} },
          'f:cronSpec': {},
          'f:extra': { 'f:known': { 'f:a': {}, 'f:unknown': {} }, 'f:other': {} },
          'f:labels': { 'f:x': {} },
          'f:maxSurge': {},
          'f:maxUnavailable': {},
          'f:ports': {
            'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} },
            'k:{"port":80,"protocol":"UDP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {} },
          },
          // Entries of a map (not named fields) are members themselves.
          'f:raw': { 'f:apiVersion': {}, 'f:kind': {}, 'f:whatever': { '.': {}, 'f:deep': {} } },
          'f:replicas': {},
          'f:selector': {},
          'f:tags': { 'v:"t1"': {} },
          'f:template': {
            'f:apiVersion': {},
            'f:kind': {},
            'f:metadata': { 'f:labels': { 'f:l': {} } },
            'f:spec': { 'f:x': {} },
          },
        },
      }),
    );
    // Fields the schema does not name are refused where unknown fields are not preserved.
    assert.throws(
      () => toFieldSet({ spec: { nope: 1 } }, atom),
      /\.spec\.nope: field not declared in schema/,
    );
    assert.throws(
      () => toFieldSet({ spec: { template: { spec: { nope: 1 } } } }, atom),
      /\.spec\.template\.spec\.nope: field not declared in schema/,
    );
  });
});
