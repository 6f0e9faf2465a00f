import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isJsonObject } from '../../util/json.js';
import type { JsonValue } from '../../util/json.js';
import { appsV1Resources } from './apps/index.js';
import { batchV1Resources } from './batch/index.js';
import { coordinationV1Resources } from './coordination/index.js';

const dir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default/discovery');

const cases = [
  ['apis_apps_v1.json', appsV1Resources],
  ['apis_batch_v1.json', batchV1Resources],
  ['apis_coordination.k8s.io_v1.json', coordinationV1Resources],
] as const;

for (const [file, resources] of cases) {
  test(`ResourceInfo matches reference discovery ${file}`, (t) => {
    const path = join(dir, file);
    if (!existsSync(path)) {
      t.skip(`reference data not found at ${path}`);
      return;
    }
    const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const list = isJsonObject(doc) ? doc['resources'] : undefined;
    assert.ok(Array.isArray(list));
    const all: JsonValue[] = list;
    const main = all.filter(
      (r) => isJsonObject(r) && typeof r['name'] === 'string' && !r['name'].includes('/'),
    );
    assert.equal(main.length, resources.length);
    for (const r of main) {
      assert.ok(isJsonObject(r));
      const info = resources.find((x) => x.info.resource === r['name'])?.info;
      assert.ok(info !== undefined, JSON.stringify(r['name']));
      assert.equal(info.kind, r['kind']);
      assert.equal(info.singular, r['singularName']);
      assert.equal(info.namespaced, r['namespaced']);
      assert.deepEqual([...info.verbs], r['verbs']);
      assert.deepEqual(info.shortNames ?? undefined, r['shortNames'] ?? undefined);
      assert.deepEqual(info.categories ?? undefined, r['categories'] ?? undefined);
      const subs = all.filter(
        (s) => isJsonObject(s) && typeof s['name'] === 'string' && s['name'].startsWith(`${info.resource}/`),
      );
      const names = subs.map((s) => (isJsonObject(s) ? s['name'] : '')).sort();
      const expected = [
        ...(info.scale !== undefined ? [`${info.resource}/scale`] : []),
        ...(info.statusSubresource === true ? [`${info.resource}/status`] : []),
      ];
      assert.deepEqual(names, expected);
    }
  });
}
