import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlagError } from './flag-error.js';
import { parseServeFlags } from './flags.js';
import { parseWatchCacheSizes, watchCacheChoice } from './watch-cache-sizes.js';

const core = (resource: string) => ({ group: '', resource });

test('by default every resource has a watch cache but Events, as kube-apiserver v1.27', () => {
  const choice = watchCacheChoice({});
  assert.equal(choice.cached(core('events'), false), false);
  assert.equal(choice.cached({ group: 'events.k8s.io', resource: 'events' }, false), false);
  for (const r of [core('pods'), core('configmaps'), { group: 'apps', resource: 'deployments' }]) {
    assert.equal(choice.cached(r, false), true, r.resource);
  }
  assert.deepEqual(choice.droppedSizes, []);
});

test('--watch-cache-sizes: 0 turns a built-in cache off, other sizes keep it (and are reported dropped)', () => {
  const choice = watchCacheChoice({ sizes: ['deployments.apps#0', 'pods#0', 'events#100', 'nodes#5000'] });
  assert.equal(choice.cached({ group: 'apps', resource: 'deployments' }, false), false);
  assert.equal(choice.cached(core('pods'), false), false);
  assert.equal(choice.cached(core('events'), false), true);
  assert.equal(choice.cached(core('nodes'), false), true);
  assert.equal(choice.cached({ group: 'events.k8s.io', resource: 'events' }, false), false);
  assert.deepEqual([...choice.droppedSizes].sort(), ['events', 'nodes']);
  // A group-resource names its group after the first dot; a trailing dot is the core group.
  assert.equal(watchCacheChoice({ sizes: ['secrets.#0'] }).cached(core('secrets'), false), false);
  assert.equal(
    watchCacheChoice({ sizes: ['deployments#0'] }).cached({ group: 'apps', resource: 'deployments' }, false),
    true,
  );
});

test('custom resources ignore the sizes; --watch-cache=false turns every cache off', () => {
  const crd = { group: 'example.com', resource: 'widgets' };
  assert.equal(watchCacheChoice({ sizes: ['widgets.example.com#0'] }).cached(crd, true), true);
  const off = watchCacheChoice({ enabled: false, sizes: ['events#100'] });
  for (const r of [core('pods'), core('events'), crd]) assert.equal(off.cached(r, r === crd), false);
  assert.deepEqual(off.droppedSizes, []);
});

test('bad sizes get upstream ParseWatchCacheSizes messages', () => {
  const cases: [string, string][] = [
    ['pods', 'invalid value of watch cache size: pods'],
    ['pods#1#2', 'invalid value of watch cache size: pods#1#2'],
    ['pods#x', 'invalid size of watch cache size: pods#x'],
    ['pods#', 'invalid size of watch cache size: pods#'],
    ['pods#99999999999999999999', 'invalid size of watch cache size: pods#99999999999999999999'],
    ['pods#-1', 'watch cache size cannot be negative: pods#-1'],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => parseWatchCacheSizes([value]), { name: 'FlagError', message }, value);
  }
  assert.deepEqual(
    [...parseWatchCacheSizes(['pods#+3', 'jobs.batch#0'])],
    [
      ['pods', 3],
      ['jobs.batch', 0],
    ],
  );
});

test('the serve flags: --watch-cache[=BOOL] and --watch-cache-sizes (comma-separated, repeatable)', () => {
  assert.equal(parseServeFlags([]).watchCache, undefined);
  assert.equal(parseServeFlags([]).watchCacheSizes, undefined);
  assert.equal(parseServeFlags(['--watch-cache=false']).watchCache, false);
  assert.equal(parseServeFlags(['--watch-cache']).watchCache, true);
  assert.deepEqual(
    parseServeFlags(['--watch-cache-sizes', 'pods#0,events#100', '--watch-cache-sizes=nodes#0'])
      .watchCacheSizes,
    ['pods#0', 'events#100', 'nodes#0'],
  );
  assert.throws(() => parseServeFlags(['--watch-cache-sizes', 'pods#-1']), FlagError);
});
