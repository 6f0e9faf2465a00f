import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { isJsonObject } from '../../../util/json.js';
import type { JsonValue } from '../../../util/json.js';
import { servedVersionsOf } from '../../versioned-store.js';
import { flowcontrolResources } from './index.js';

const ctx: StrategyContext = { namespace: '', features: { enabled: () => false } };
const [flowSchemas, levels] = flowcontrolResources;
const group = 'flowcontrol.apiserver.k8s.io';

function level(shares: number): KubeObject {
  return {
    apiVersion: `${group}/v1beta3`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'p' },
    spec: {
      type: 'Limited',
      limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Reject' } },
    },
  };
}

describe('served versions', () => {
  test('both kinds are stored as v1beta3 and served at v1beta2 and v1beta3', () => {
    assert.deepEqual(
      flowcontrolResources.map((r) => `${r.info.version}/${r.info.kind}`),
      ['v1beta3/FlowSchema', 'v1beta3/PriorityLevelConfiguration'],
    );
    for (const r of flowcontrolResources) {
      assert.deepEqual(
        servedVersionsOf(r).map((v) => v.info.version),
        ['v1beta2', 'v1beta3'],
      );
    }
  });

  for (const version of ['v1beta2', 'v1beta3']) {
    test(`ResourceInfo matches reference discovery of ${group}/${version}`, (t) => {
      const path = join(
        process.cwd(),
        `../shared/reference/kube-apiserver-v1.28.7/default/discovery/apis_${group}_${version}.json`,
      );
      if (!existsSync(path)) {
        t.skip(`reference data not found at ${path}`);
        return;
      }
      const doc = JSON.parse(readFileSync(path, 'utf8')) as JsonValue;
      const list = isJsonObject(doc) && Array.isArray(doc['resources']) ? doc['resources'] : [];
      const names: string[] = [];
      for (const r of flowcontrolResources) {
        const info = servedVersionsOf(r).find((v) => v.info.version === version)!.info;
        const main = list.find((x) => isJsonObject(x) && x['name'] === info.resource);
        assert.ok(isJsonObject(main), info.resource);
        assert.equal(info.kind, main['kind']);
        assert.equal(info.singular, main['singularName']);
        assert.equal(info.namespaced, main['namespaced']);
        assert.deepEqual([...info.verbs], main['verbs']);
        assert.equal(info.shortNames, main['shortNames']);
        assert.equal(info.categories, main['categories']);
        const gvk = `${r.info.group}/${r.info.version}/${r.info.kind}`;
        const hash = createHash('sha256').update(gvk).digest().subarray(0, 8).toString('base64');
        assert.equal(hash, main['storageVersionHash'], 'v1.28 (like v1.27) stores v1beta3');
        names.push(info.resource);
        if (info.statusSubresource === true) names.push(`${info.resource}/status`);
      }
      assert.deepEqual(
        names,
        list.map((x) => (isJsonObject(x) ? x['name'] : '')),
      );
    });
  }
});

describe('strategies', () => {
  test('create resets status and sets generation 1; updates keep status and bump on spec changes', () => {
    const o = level(5);
    o['status'] = { conditions: [{ type: 'ConcurrencyShared', status: 'True' }] };
    o.metadata.generation = 9;
    levels!.strategy.prepareForCreate(ctx, o);
    assert.deepEqual(o['status'], {});
    assert.equal(o.metadata.generation, 1);

    const old = level(5);
    old.metadata.generation = 1;
    old['status'] = { conditions: [{ type: 'ConcurrencyShared', status: 'True' }] };
    const same = level(5);
    same.metadata.generation = 1;
    same.metadata.labels = { a: 'b' };
    levels!.strategy.prepareForUpdate(ctx, same, old);
    assert.equal(same.metadata.generation, 1);
    assert.deepEqual(same['status'], old['status']);
    const changed = level(6);
    changed.metadata.generation = 1;
    levels!.strategy.prepareForUpdate(ctx, changed, old);
    assert.equal(changed.metadata.generation, 2);
  });

  test('validation names the shares as the request version does', () => {
    const bad = level(0);
    assert.deepEqual(levels!.strategy.validate(ctx, bad).map(String), [
      'spec.limited.nominalConcurrencyShares: Invalid value: 0: must be positive',
    ]);
    const v2ctx: StrategyContext = { ...ctx, requestVersion: { group, version: 'v1beta2' } };
    assert.deepEqual(levels!.strategy.validateUpdate(v2ctx, bad, level(1)).map(String), [
      'spec.limited.assuredConcurrencyShares: Invalid value: 0: must be positive',
    ]);
  });

  test('/status writes only the status and checks its conditions', () => {
    const status = flowSchemas!.statusStrategy!;
    const old: KubeObject = {
      apiVersion: `${group}/v1beta3`,
      kind: 'FlowSchema',
      metadata: { name: 'f', generation: 3 },
      spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 10 },
      status: {},
    };
    const next: KubeObject = {
      ...old,
      metadata: { name: 'f', generation: 3 },
      spec: { priorityLevelConfiguration: { name: 'q' }, matchingPrecedence: 20 },
      status: {
        conditions: [
          { type: 'Dangling', status: 'True' },
          { type: 'Dangling', status: 'False' },
        ],
      },
    };
    status.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next['spec'], old['spec']);
    assert.equal(next.metadata.generation, 3);
    assert.deepEqual(status.validateUpdate(ctx, next, old).map(String), [
      'status.conditions[1].type: Duplicate value: "Dangling"',
    ]);
  });
});
