import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { builtinSchemas } from '../../apis/schema/builtin.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { allVerbs } from '../../apis/resource.js';
import type { ResourceInfo } from '../../apis/resource.js';
import { configMapsResource } from '../../registry/resources/core/configmaps.js';
import { namespacesResource } from '../../registry/resources/core/namespaces.js';
import { podsResource } from '../../registry/resources/core/pods.js';
import { deployments } from '../../registry/resources/apps/deployments.js';
import { publishesDeletedObject } from '../../registry/resource.js';
import { groupResourceKey } from './operations.js';
import { buildOpenApiV2 } from './v2.js';
import { buildOpenApiV3, buildOpenApiV3Index, openApiV3Hash } from './v3.js';

export const testResources: readonly ResourceInfo[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    singular: 'pod',
    namespaced: true,
    definition: 'io.k8s.api.core.v1.Pod',
    verbs: allVerbs,
    statusSubresource: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    resource: 'configmaps',
    singular: 'configmap',
    namespaced: true,
    definition: 'io.k8s.api.core.v1.ConfigMap',
    verbs: allVerbs,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    resource: 'namespaces',
    singular: 'namespace',
    namespaced: false,
    definition: 'io.k8s.api.core.v1.Namespace',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    statusSubresource: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    resource: 'deployments',
    singular: 'deployment',
    namespaced: true,
    definition: 'io.k8s.api.apps.v1.Deployment',
    verbs: allVerbs,
    statusSubresource: true,
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
];

const refDir = '../shared/reference/kube-apiserver-v1.28.7/default/openapi';
const skip = existsSync(refDir) ? false : `reference data absent (${refDir})`;
/** As the server derives it: the registry resources' returnDeletedObject, less namespaces'. */
const deleteReturnsObject = new Set(
  [podsResource, configMapsResource, namespacesResource, deployments]
    .filter(publishesDeletedObject)
    .map((r) => groupResourceKey(r.info)),
);
const options = {
  registry: builtinSchemas(),
  resources: testResources,
  deleteReturnsObject,
  version: { gitVersion: 'v1.27.16' },
};
/** Fields the v1.28 reference has that v1.27 does not. */
const newIn128: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.core.v1.Container': ['restartPolicy'],
  'io.k8s.api.core.v1.EphemeralContainer': ['restartPolicy'],
  'io.k8s.api.core.v1.PodStatus': ['hostIPs', 'resourceClaimStatuses'],
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': ['allocatedResourceStatuses', 'resizeStatus'],
};

function obj(v: JsonValue | undefined): JsonObject {
  assert.ok(isJsonObject(v), 'expected an object');
  return v;
}

function text(v: JsonValue | undefined): string {
  assert.equal(typeof v, 'string');
  return v as string;
}

function readRef(path: string): JsonObject {
  return obj(JSON.parse(readFileSync(`${refDir}/${path}`, 'utf8')) as JsonValue);
}

/** Drops descriptions and unwraps a lone `allOf: [{$ref}]` (upstream wraps for the description). */
function normalize(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(normalize);
  if (!isJsonObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'description') out[k] = normalize(x);
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1) {
    delete out.allOf;
    Object.assign(out, obj(allOf[0]));
  }
  return out;
}

function compareDefinitions(ours: JsonObject, theirs: JsonObject, names: readonly string[]): void {
  for (const name of names) {
    const a = obj(normalize(obj(ours[name])));
    const b = obj(normalize(obj(theirs[name])));
    const ap = isJsonObject(a.properties) ? a.properties : {};
    const bp = isJsonObject(b.properties) ? { ...b.properties } : {};
    for (const extra of newIn128[name] ?? []) delete bp[extra];
    assert.deepEqual(Object.keys(ap).sort(), Object.keys(bp).sort(), `${name} property names`);
    for (const k of Object.keys(ap)) assert.deepEqual(ap[k], bp[k], `${name}.${k}`);
    delete a.properties;
    delete b.properties;
    assert.deepEqual(a, b, `${name} (besides properties)`);
  }
}

describe('buildOpenApiV2', { skip }, () => {
  const doc = buildOpenApiV2(options);
  const reference = readRef('v2.json');
  const defs = obj(doc.definitions);
  it('has upstream definitions for the served kinds and their closure', () => {
    const names = Object.keys(defs);
    assert.deepEqual(names, [...names].sort());
    for (const n of [
      'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
      'io.k8s.api.autoscaling.v1.Scale',
    ])
      assert.ok(n in defs, n);
    compareDefinitions(defs, obj(reference.definitions), names);
  });
  it('publishes the same paths and operations as upstream', () => {
    const refPaths = obj(reference.paths);
    const refParams = obj(reference.parameters);
    const paramNames = (list: JsonValue | undefined): string[] =>
      (Array.isArray(list) ? list : []).map((p) => {
        const o = obj(p);
        const r = o.$ref;
        return text(typeof r === 'string' ? obj(refParams[r.replace('#/parameters/', '')]).name : o.name);
      });
    const ours = obj(doc.paths);
    const expected = Object.keys(refPaths).filter(
      (p) =>
        /\/(pods|configmaps|namespaces|deployments)(\/\{name\}(\/(status|scale))?)?$/.test(p) ||
        /^\/(api|apis)\/(apps\/)?(v1\/)?$/.test(p) ||
        p === '/version/' ||
        p === '/apis/apps/',
    );
    assert.deepEqual(
      Object.keys(ours)
        .filter((p) => p !== '/api/v1/namespaces/{namespace}/namespaces')
        .sort(),
      expected.sort(),
    );
    for (const p of expected) {
      const a = obj(ours[p]);
      const b = obj(refPaths[p]);
      assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), p);
      assert.deepEqual(paramNames(a.parameters), paramNames(b.parameters), `${p} parameters`);
      for (const m of Object.keys(b).filter((k) => k !== 'parameters')) {
        const x = obj(a[m]);
        const y = obj(b[m]);
        for (const k of [
          'operationId',
          'x-kubernetes-action',
          'x-kubernetes-group-version-kind',
          'consumes',
          'produces',
          'tags',
        ])
          assert.deepEqual(x[k], y[k], `${m} ${p} ${k}`);
        assert.deepEqual(paramNames(x.parameters), paramNames(y.parameters), `${m} ${p} parameters`);
        assert.deepEqual(normalize(obj(x.responses)), normalize(obj(y.responses)), `${m} ${p} responses`);
      }
    }
    assert.deepEqual(doc.securityDefinitions, reference.securityDefinitions);
  });
});

describe('buildOpenApiV3', { skip }, () => {
  const docs = buildOpenApiV3(options);
  it('builds one document per group-version plus the root documents', () => {
    assert.deepEqual(
      docs.map((d) => d.path),
      ['api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'version'],
    );
  });
  it('matches upstream schemas for Pod, ConfigMap and Deployment', () => {
    for (const [path, file] of [
      ['api/v1', 'v3/api_v1.json'],
      ['apis/apps/v1', 'v3/apis_apps_v1.json'],
    ] as const) {
      const ours = obj(obj(docs.find((d) => d.path === path)?.document.components).schemas);
      const theirs = obj(obj(readRef(file).components).schemas);
      compareDefinitions(ours, theirs, Object.keys(ours));
    }
  });
  it('matches upstream operations', () => {
    const ours = obj(docs.find((d) => d.path === 'apis/apps/v1')?.document.paths);
    const theirs = obj(readRef('v3/apis_apps_v1.json').paths);
    for (const p of Object.keys(ours)) {
      assert.deepEqual(normalize(ours[p]!), normalize(obj(theirs[p])), p);
    }
  });
  it('indexes documents by the uppercase SHA-512 of their bytes', () => {
    const index = obj(buildOpenApiV3Index(docs).paths);
    const apiV1 = docs.find((d) => d.path === 'api/v1')!;
    assert.deepEqual(index['api/v1'], {
      serverRelativeURL: `/openapi/v3/api/v1?hash=${openApiV3Hash(JSON.stringify(apiV1.document))}`,
    });
    assert.match(
      text(obj(index['apis/apps/v1']).serverRelativeURL),
      /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/,
    );
  });
});
