import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes, AdmissionOperation } from '../attributes.js';
import { attrsOf, runPlugin, statusOf, testDeps, testUser } from '../testing/fake-admission-deps.js';
import type { Configuration, Limit } from './configuration.js';
import { eventRateLimit, eventRateLimitPlugin } from './event-rate-limit.js';

interface Request {
  readonly namespace?: string;
  readonly user?: string;
  readonly event?: JsonObject;
  readonly kind?: string;
  readonly group?: string;
  readonly operation?: AdmissionOperation;
  readonly dryRun?: boolean;
  /** Seconds to advance the clock by before the request. */
  readonly delay?: number;
  readonly blocked?: boolean;
}

function attrs(r: Request): AdmissionAttributes {
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: r.kind ?? 'Event',
    metadata: { name: 'e', namespace: r.namespace ?? '' },
    ...(r.event ?? {}),
  };
  const a = attrsOf({
    operation: r.operation ?? 'CREATE',
    group: r.group ?? '',
    resource: 'events',
    kind: r.kind ?? 'Event',
    namespace: r.namespace ?? '',
    name: 'e',
    object,
    user: testUser(r.user ?? ''),
  });
  return { ...a, dryRun: r.dryRun ?? false };
}

const limit = (type: string, burst: number, cacheSize = 0): Limit => ({ type, qps: 1, burst, cacheSize });

/** Runs the requests in order on a fake clock, asserting which are blocked. */
function run(limits: Limit[], requests: readonly Request[]): void {
  let now = Date.parse('2023-04-11T00:00:00Z');
  const check = eventRateLimit({ limits }, () => now);
  requests.forEach((r, i) => {
    now += (r.delay ?? 0) * 1000;
    let blocked = false;
    try {
      check(attrs(r));
    } catch (err) {
      assert.equal(statusOf(err).code, 429);
      blocked = true;
    }
    assert.equal(
      blocked,
      r.blocked ?? false,
      `request ${i} should have been ${r.blocked ? 'blocked' : 'admitted'}`,
    );
  });
}

const ev: Request = {};
const blocked: Request = { blocked: true };
const ns = (namespace: string, block = false): Request => ({ namespace, blocked: block });
const component = (c: string, block = false): Request => ({
  event: { source: { component: c } },
  blocked: block,
});

test('server limit: tokens, exhaustion, refill; non-events neither blocked nor counted', () => {
  run([limit('Server', 3)], [ev]);
  run([limit('Server', 3)], [ev, ev, ev, blocked]);
  run([limit('Server', 3)], [ev, ev, ev, { kind: 'NonEvent' }]);
  run([limit('Server', 3)], [ev, ev, { kind: 'NonEvent' }, ev]);
  run([limit('Server', 3)], [ev, ev, ev, blocked, { delay: 1 }]);
  // events.k8s.io's kind is not core Event.
  run([limit('Server', 1)], [ev, { group: 'events.k8s.io' }, blocked]);
  // Updates count too.
  run([limit('Server', 2)], [ev, { operation: 'UPDATE' }, blocked]);
});

test('dry-run requests neither consume tokens nor are blocked', () => {
  run(
    [limit('Server', 3)],
    [
      ev,
      ev,
      { dryRun: true },
      { dryRun: true },
      { dryRun: true },
      { dryRun: true },
      ev,
      blocked,
      { dryRun: true },
    ],
  );
});

test('namespace limit: per namespace, and the LRU forgets the least recent namespace', () => {
  const limits = [limit('Server', 100), limit('Namespace', 3, 10)];
  run(limits, [ns('A'), ns('A'), ns('A'), ns('A', true)]);
  run(limits, [ns('A'), ns('A'), ns('A'), ns('B')]);
  run(limits, [ns('A'), ns('A'), ns('B'), ns('A')]);
  run(limits, [ns('A'), ns('A'), ns('A'), ns('A', true), { namespace: 'A', delay: 1 }]);
  run(limits, [ns('A'), ns('A'), ns('A'), ns('B'), ns('A', true)]);
  run(
    [limit('Server', 100), limit('Namespace', 3, 2)],
    [
      ns('A'),
      ns('A'),
      ns('B'),
      ns('B'),
      ns('B'),
      ns('A'),
      ns('B', true),
      ns('A', true),
      ns('C'),
      ns('A', true),
      ns('B'),
    ],
  );
});

test('source+object limit: per source and involved object, every part of the key counts', () => {
  const limits = [limit('Server', 100), limit('SourceAndObject', 3, 10)];
  run(limits, [component('A'), component('A'), component('A'), component('A', true)]);
  run(limits, [component('A'), component('A'), component('A'), component('B')]);
  run(
    [limit('Server', 100), limit('SourceAndObject', 3, 2)],
    [
      component('A'),
      component('A'),
      component('B'),
      component('B'),
      component('B'),
      component('A'),
      component('B', true),
      component('A', true),
      component('C'),
      component('A', true),
      component('B'),
    ],
  );
  const parts: ((v: string) => JsonObject)[] = [
    (v) => ({ source: { host: v } }),
    (v) => ({ involvedObject: { kind: v } }),
    (v) => ({ involvedObject: { namespace: v } }),
    (v) => ({ involvedObject: { name: v } }),
    (v) => ({ involvedObject: { uid: v } }),
    (v) => ({ involvedObject: { apiVersion: v } }),
  ];
  for (const part of parts) {
    run(
      [limit('Server', 100), limit('SourceAndObject', 1, 10)],
      [{ event: part('A') }, { event: part('A'), blocked: true }, { event: part('B') }],
    );
  }
});

test('user limit: per user name', () => {
  const limits = [limit('User', 3, 10)];
  run(limits, [{ user: 'A' }, { user: 'A' }, { user: 'A' }, { user: 'A', blocked: true }]);
  run(limits, [{ user: 'A' }, { user: 'A' }, { user: 'A' }, { user: 'B' }]);
  run(limits, [{ user: 'A' }, { user: 'A' }, { user: 'B' }, { user: 'A' }]);
});

test('the refusal is a 429 TooManyRequests naming every limit reached', () => {
  const config: Configuration = { limits: [limit('Server', 1), limit('Namespace', 1, 10), limit('User', 5)] };
  const check = eventRateLimit(config, () => 0);
  check(attrs({ namespace: 'A', user: 'u' }));
  let status: unknown;
  try {
    check(attrs({ namespace: 'A', user: 'u' }));
  } catch (err) {
    status = (err as { status: unknown }).status;
  }
  assert.deepEqual(status, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'Too many requests: [limit reached on type Server for key , limit reached on type Namespace for key A]',
    reason: 'TooManyRequests',
    code: 429,
  });
  // One limit alone is not bracketed.
  const single = eventRateLimit({ limits: [limit('Namespace', 1)] }, () => 0);
  single(attrs({ namespace: 'B' }));
  assert.throws(() => single(attrs({ namespace: 'B' })), {
    message: 'Too many requests: limit reached on type Namespace for key B',
  });
});

test('the plugin reads its configuration, and refuses to start without a valid one', async () => {
  const config = {
    apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1',
    kind: 'Configuration',
    limits: [{ type: 'Namespace', qps: 1, burst: 1 }],
  };
  const plugin = eventRateLimitPlugin(testDeps({ config: { EventRateLimit: config } }));
  assert.equal(plugin.name, 'EventRateLimit');
  assert.deepEqual([...plugin.operations].sort(), ['CREATE', 'UPDATE']);
  await runPlugin(plugin, attrs({ namespace: 'A' }));
  await assert.rejects(runPlugin(plugin, attrs({ namespace: 'A' })), {
    message: 'Too many requests: limit reached on type Namespace for key A',
  });
  // Deletes are not handled.
  await runPlugin(plugin, { ...attrs({ namespace: 'A' }), operation: 'DELETE' });
  assert.throws(() => eventRateLimitPlugin(testDeps()), {
    message: 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty',
  });
});
