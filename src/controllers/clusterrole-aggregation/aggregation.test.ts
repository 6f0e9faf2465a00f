/** Which rules an aggregated ClusterRole gets (upstream syncClusterRole). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { aggregatedRules } from './index.js';

const role = (
  name: string,
  labels: Record<string, string>,
  rules: JsonObject[],
  agg?: JsonObject,
): JsonObject => ({
  metadata: { name, labels },
  rules,
  ...(agg !== undefined ? { aggregationRule: agg } : {}),
});

test('#12 aggregation: selected roles in name order, each rule once, not itself', () => {
  const get = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
  const list = { verbs: ['list'], apiGroups: [''], resources: ['pods'] };
  const agg = role('agg', { x: 'true' }, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], {
    clusterRoleSelectors: [{ matchLabels: { x: 'true' } }, { matchLabels: { y: 'true' } }],
  });
  const all = [
    agg,
    role('b', { x: 'true' }, [list, get]),
    role('a', { x: 'true' }, [get]),
    role('c', { y: 'true' }, [
      { ...get, resourceNames: [] },
      { verbs: ['get'], nonResourceURLs: ['/x'] },
    ]),
    role('d', {}, [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }]),
  ];
  assert.deepEqual(aggregatedRules(agg, all), [get, list, { verbs: ['get'], nonResourceURLs: ['/x'] }]);
  assert.equal(aggregatedRules(role('plain', {}, []), all), undefined);
  assert.deepEqual(
    aggregatedRules(role('e', {}, [], { clusterRoleSelectors: [{ matchLabels: { z: 'true' } }] }), all),
    [],
  );
});
