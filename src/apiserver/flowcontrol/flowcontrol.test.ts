import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootstrapFlowcontrolObjects } from '../../apis/flowcontrol/bootstrap.js';
import { Dealer } from '../../apis/flowcontrol/shufflesharding.js';
import type { UserInfo } from '../../machinery/user.js';
import type { JsonObject } from '../../util/json.js';
import { createLogger } from '../../util/log.js';
import { parseRequestInfo } from '../request-info.js';
import { computeConcurrencyAllocation } from './concurrency-allocation.js';
import { FlowController, hashFlowID } from './controller.js';
import { tabwrite, seatSeconds } from './debug.js';
import { FlowGauges } from './flow-gauges.js';
import { compareFlowSchemas, matchesFlowSchema } from './match.js';
import { QueueSet } from './queueset.js';
import type { QueuedRequest, StartRequestOptions } from './queueset.js';
import { flowSchemaDigest } from './types.js';
import { ObjectCountTracker, estimateWork, levelMaxSeats } from './work-estimator.js';
import type { FlowSchemaCondition } from './types.js';

const log = createLogger({ verbosity: 0 });
const user = (name: string, ...groups: string[]): UserInfo => ({ name, uid: '', groups, extra: {} });
const req = (method: string, path: string) => parseRequestInfo(method, new URL(path, 'https://x'));

function schema(name: string, precedence: number, rule: JsonObject, level = 'global-default'): JsonObject {
  return {
    metadata: { name, uid: `uid-${name}` },
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence, rules: [rule] },
  };
}

const everyResource = {
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  clusterScope: true,
  namespaces: ['*'],
};

describe('FlowSchema matching (rule.go)', () => {
  it('matches users, groups and service accounts, with *', () => {
    const fs = (subject: JsonObject) =>
      flowSchemaDigest(schema('s', 1, { subjects: [subject], resourceRules: [everyResource] }));
    const get = req('GET', '/api/v1/namespaces/a/pods/p');
    assert.ok(matchesFlowSchema(fs({ kind: 'User', user: { name: 'alice' } }), get, user('alice')));
    assert.ok(!matchesFlowSchema(fs({ kind: 'User', user: { name: 'alice' } }), get, user('bob')));
    assert.ok(matchesFlowSchema(fs({ kind: 'User', user: { name: '*' } }), get, user('bob')));
    assert.ok(matchesFlowSchema(fs({ kind: 'Group', group: { name: 'devs' } }), get, user('bob', 'devs')));
    assert.ok(!matchesFlowSchema(fs({ kind: 'Group', group: { name: 'devs' } }), get, user('bob', 'ops')));
    assert.ok(matchesFlowSchema(fs({ kind: 'Group', group: { name: '*' } }), get, user('bob')));
    const sa = (namespace: string, name: string) =>
      fs({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });
    assert.ok(matchesFlowSchema(sa('kube-system', 'x'), get, user('system:serviceaccount:kube-system:x')));
    assert.ok(!matchesFlowSchema(sa('kube-system', 'x'), get, user('system:serviceaccount:kube-system:y')));
    assert.ok(matchesFlowSchema(sa('kube-system', '*'), get, user('system:serviceaccount:kube-system:y')));
    assert.ok(!matchesFlowSchema(sa('kube-system', '*'), get, user('system:serviceaccount:kube-systemx:y')));
    assert.ok(!matchesFlowSchema(sa('kube-system', '*'), get, user('kube-system:y')));
  });

  it('matches resource rules by verb, group, resource/subresource, scope and namespace', () => {
    const fs = (rule: JsonObject) =>
      flowSchemaDigest(
        schema('s', 1, { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [rule] }),
      );
    const u = user('u');
    const leases = {
      verbs: ['get', 'update'],
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      namespaces: ['kube-system'],
    };
    assert.ok(
      matchesFlowSchema(
        fs(leases),
        req('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'),
        u,
      ),
    );
    assert.ok(
      !matchesFlowSchema(
        fs(leases),
        req('DELETE', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'),
        u,
      ),
    );
    assert.ok(
      !matchesFlowSchema(
        fs(leases),
        req('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l'),
        u,
      ),
    );
    assert.ok(
      !matchesFlowSchema(fs(leases), req('GET', '/apis/other.io/v1/namespaces/kube-system/leases/l'), u),
    );
    // A cluster-scoped request needs clusterScope.
    const nodes = { verbs: ['*'], apiGroups: [''], resources: ['nodes/status'], namespaces: [] };
    assert.ok(!matchesFlowSchema(fs(nodes), req('PUT', '/api/v1/nodes/n/status'), u));
    assert.ok(
      matchesFlowSchema(fs({ ...nodes, clusterScope: true }), req('PUT', '/api/v1/nodes/n/status'), u),
    );
    assert.ok(!matchesFlowSchema(fs({ ...nodes, clusterScope: true }), req('PUT', '/api/v1/nodes/n'), u));
    // A resource rule never matches a non-resource request.
    assert.ok(!matchesFlowSchema(fs(everyResource), req('GET', '/healthz'), u));
  });

  it('matches non-resource URLs exactly, by /prefix/* and by *', () => {
    const fs = (urls: string[], verbs = ['get']) =>
      flowSchemaDigest(
        schema('s', 1, {
          subjects: [{ kind: 'Group', group: { name: '*' } }],
          nonResourceRules: [{ verbs, nonResourceURLs: urls }],
        }),
      );
    const u = user('u');
    assert.ok(matchesFlowSchema(fs(['/healthz']), req('GET', '/healthz'), u));
    assert.ok(!matchesFlowSchema(fs(['/healthz']), req('POST', '/healthz'), u));
    assert.ok(matchesFlowSchema(fs(['/healthz']), req('GET', '/healthz/etcd'), u));
    assert.ok(matchesFlowSchema(fs(['/metrics/*']), req('GET', '/metrics/x'), u));
    assert.ok(!matchesFlowSchema(fs(['/readyz']), req('GET', '/readyzz'), u));
    assert.ok(matchesFlowSchema(fs(['*'], ['*']), req('PUT', '/anything'), u));
    assert.ok(!matchesFlowSchema(fs(['*']), req('GET', '/api/v1/pods'), u));
  });

  it('orders schemas by matchingPrecedence, then name', () => {
    const d = (name: string, p: number) => flowSchemaDigest(schema(name, p, {}));
    const sorted = [d('b', 10), d('a', 10), d('z', 1)].sort(compareFlowSchemas).map((s) => s.name);
    assert.deepEqual(sorted, ['z', 'a', 'b']);
  });
});

describe('shuffle sharding Dealer (upstream shufflesharding_test.go)', () => {
  it('refuses what upstream refuses, with its messages', () => {
    assert.throws(() => new Dealer(-100, 8), { message: 'deckSize -100 or handSize 8 is not positive' });
    assert.throws(() => new Dealer(100, 0), { message: 'deckSize 100 or handSize 0 is not positive' });
    assert.throws(() => new Dealer(100, 101), { message: 'handSize 101 is greater than deckSize 100' });
    assert.throws(() => new Dealer(1 << 27, 2), { message: 'deckSize 134217728 is impractically large' });
    assert.throws(() => new Dealer(512, 8), {
      message: 'required entropy bits of deckSize 512 and handSize 8 is greater than 60',
    });
    assert.equal(new Dealer(1024, 6).handSize, 6);
  });

  it('deals the mixed-radix digits of the hash as upstream', () => {
    assert.deepEqual(new Dealer(6, 6).dealIntoHand(0n), [0, 1, 2, 3, 4, 5]);
    // 123 = 3 + 10×(3 + 9×1): remainders 3, 3, 1 → cards 3, 4 (3 taken), 1.
    assert.deepEqual(new Dealer(10, 3).dealIntoHand(123n), [3, 4, 1]);
    // The whole 64-bit range: 2^64-1 in radix 64, 63, ...
    const hand = new Dealer(64, 6).dealIntoHand(0xffffffffffffffffn);
    assert.equal(new Set(hand).size, 6);
  });

  it('deals every ordered hand exactly once over deck×(deck-1) hashes, never a duplicate card', () => {
    const d = new Dealer(8, 2);
    const seen = new Set<string>();
    for (let h = 0n; h < 56n; h++) {
      const hand = d.dealIntoHand(h);
      assert.notEqual(hand[0], hand[1]);
      seen.add(hand.join(','));
    }
    assert.equal(seen.size, 56);
    const big = new Dealer(128, 6);
    for (let i = 0; i < 200; i++) {
      const hand = big.dealIntoHand(hashFlowID('fs', `user-${i}`));
      assert.equal(new Set(hand).size, 6);
      assert.ok(hand.every((c) => c >= 0 && c < 128));
    }
  });
});

class FakeClock {
  t = 1000;
  readonly now = (): number => this.t;
}

function queueSet(
  clock: FakeClock,
  o: { queues: number; handSize: number; limit: number; cl: number; wait?: number },
) {
  const qs = new QueueSet(
    { now: clock.now, seatDemand: () => undefined, gauges: new FlowGauges() },
    {
      name: 'test',
      desiredNumQueues: o.queues,
      queueLengthLimit: o.limit,
      handSize: o.handSize,
      requestWaitLimit: o.wait ?? 15,
    },
  );
  qs.setConfiguration(qs.qCfg, o.queues > 0 ? new Dealer(o.queues, o.handSize) : undefined, o.cl);
  return qs;
}

const start = (qs: QueueSet, flow: bigint, fsName = 'fs', signal = new AbortController().signal) => {
  const o: StartRequestOptions = {
    signal,
    workEstimate: { initialSeats: 1, finalSeats: 0, additionalLatency: 0 },
    hashValue: flow,
    flowDistinguisher: String(flow),
    fsName,
    info: req('GET', '/api/v1/pods'),
    user: user('u'),
  };
  return qs.startRequest(o);
};

/** Runs a request: resolves `done` to end it; `started` resolves when it executes. */
function run(r: QueuedRequest | undefined) {
  assert.ok(r !== undefined);
  let end!: () => void;
  let started!: () => void;
  const running = new Promise<void>((s) => (started = s));
  const finished = r.finish(
    () =>
      new Promise<void>((resolve) => {
        end = resolve;
        started();
      }),
  );
  return { running, end: () => end(), finished };
}

describe('QueueSet (fairqueuing/queueset)', () => {
  it('serves a light flow between the requests of a heavy one (virtual finish time)', async () => {
    const clock = new FakeClock();
    // Hand size 1: flow 0 uses queue 0, flow 1 queue 1.
    const qs = queueSet(clock, { queues: 2, handSize: 1, limit: 50, cl: 1 });
    const order: string[] = [];
    const heavy = Array.from({ length: 8 }, () => run(start(qs, 0n)));
    const light = Array.from({ length: 2 }, () => run(start(qs, 1n)));
    const all = [...heavy, ...light];
    const names = [...heavy.map((_, i) => `h${i}`), ...light.map((_, i) => `l${i}`)];
    const running = new Set<number>();
    all.forEach((x, i) => void x.running.then(() => running.add(i)));
    while (order.length < all.length) {
      await new Promise((r) => setImmediate(r));
      // One seat: at most one executes; end it after 3 ms of (fake) service.
      assert.ok(running.size <= 1);
      for (const i of running) {
        running.delete(i);
        order.push(names[i]!);
        clock.t += 0.003;
        all[i]!.end();
      }
    }
    await Promise.all(all.map((x) => x.finished));
    assert.equal(order.length, 10);
    // Both light requests run among the first four dispatched, not after the heavy flow's eight.
    assert.ok(order.indexOf('l0') < 4 && order.indexOf('l1') < 4, order.join(' '));
    assert.equal(qs.totRequestsDispatched, 0);
    assert.ok(qs.isIdle());
  });

  it('rejects beyond the queue length limit while all seats are taken (queue-full)', async () => {
    const clock = new FakeClock();
    const qs = queueSet(clock, { queues: 1, handSize: 1, limit: 2, cl: 1 });
    const first = run(start(qs, 0n));
    await first.running;
    const queued = [start(qs, 0n), start(qs, 0n)];
    assert.ok(queued.every((q) => q !== undefined));
    assert.equal(qs.totRequestsWaiting, 2);
    assert.equal(start(qs, 0n), undefined);
    assert.equal(qs.totRequestsRejected, 1);
    const rest = queued.map(run);
    first.end();
    await rest[0]!.running;
    rest[0]!.end();
    await rest[1]!.running;
    rest[1]!.end();
    await Promise.all([first.finished, ...rest.map((r) => r.finished)]);
    assert.ok(qs.isIdle());
  });

  it('times out a request that waited past the limit when another arrives at its queue', async () => {
    const clock = new FakeClock();
    const qs = queueSet(clock, { queues: 1, handSize: 1, limit: 50, cl: 1, wait: 15 });
    const first = run(start(qs, 0n));
    await first.running;
    const waiting = start(qs, 0n)!;
    const executed = waiting.finish(() => Promise.resolve());
    clock.t += 16;
    const later = run(start(qs, 0n));
    assert.equal(await executed, false);
    assert.equal(qs.totRequestsTimedout, 1);
    assert.equal(qs.totRequestsRejected, 1);
    first.end();
    await later.running;
    later.end();
    await Promise.all([first.finished, later.finished]);
  });

  it('counts a request whose client went away while queued as cancelled', async () => {
    const clock = new FakeClock();
    const qs = queueSet(clock, { queues: 1, handSize: 1, limit: 50, cl: 1 });
    const first = run(start(qs, 0n));
    await first.running;
    const gone = new AbortController();
    const waiting = start(qs, 0n, 'fs', gone.signal)!;
    const executed = waiting.finish(() => Promise.resolve());
    gone.abort();
    assert.equal(await executed, false);
    assert.equal(qs.totRequestsCancelled, 1);
    assert.equal(qs.totRequestsWaiting, 0);
    first.end();
    await first.finished;
    assert.ok(qs.isIdle());
  });

  it('without queues (Reject) executes while seats are free, else rejects at once', async () => {
    const clock = new FakeClock();
    const qs = queueSet(clock, { queues: 0, handSize: 0, limit: 0, cl: 2 });
    const a = run(start(qs, 0n));
    const b = run(start(qs, 0n));
    await Promise.all([a.running, b.running]);
    assert.equal(start(qs, 0n), undefined);
    a.end();
    await a.finished;
    const c = run(start(qs, 0n));
    await c.running;
    b.end();
    c.end();
    await Promise.all([b.finished, c.finished]);
    assert.equal(qs.totRequestsRejected, 1);
  });
});

describe('FlowController', () => {
  const bootstrap = (): { levels: JsonObject[]; schemas: JsonObject[] } => {
    const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
    const withUID = (o: { metadata: { name?: string } }): JsonObject => ({
      ...o,
      metadata: { ...o.metadata, uid: `uid-${o.metadata.name ?? ''}` },
    });
    return { levels: priorityLevels.map(withUID), schemas: flowSchemas.map(withUID) };
  };

  it('gives the bootstrap levels upstream nominal, lower and upper limits for SCL 600', () => {
    const fc = new FlowController({ serverConcurrencyLimit: 600, requestWaitLimit: 15, log });
    const { levels, schemas } = bootstrap();
    fc.digestObjects(levels, schemas);
    const limits = Object.fromEntries(
      [...fc.levels]
        .filter(([, s]) => s.pl.limited !== undefined)
        .map(([n, s]) => [n, [s.nominalCL, s.minCL, s.maxCL]]),
    );
    // ceil(600 × shares / 245); lendable round(nominal × lendablePercent / 100); borrowing unlimited (+600).
    assert.deepEqual(limits, {
      system: [74, 50, 674],
      'node-high': [98, 73, 698],
      'leader-election': [25, 25, 625],
      'workload-high': [98, 49, 698],
      'workload-low': [245, 24, 845],
      'global-default': [49, 24, 649],
      'catch-all': [13, 13, 613],
    });
    // Idle, the seats are shared in proportion to the lower limits (upstream's fair allocation).
    const current = [...fc.levels.values()]
      .filter((s) => s.pl.limited !== undefined)
      .reduce((n, s) => n + s.currentCL, 0);
    assert.ok(Math.abs(current - 602) <= 7, String(current));
    assert.equal(fc.levels.get('leader-election')!.currentCL, Math.round((25 * 602) / 258));
  });

  it('classifies by precedence, the exempt schema for system:masters, catch-all otherwise', () => {
    const fc = new FlowController({ serverConcurrencyLimit: 600, requestWaitLimit: 15, log });
    // Before any configuration: the imagined mandatory objects.
    const seen: string[] = [];
    const classify = async (u: UserInfo, path = '/api/v1/pods') => {
      await fc.handle({
        info: req('GET', path),
        url: new URL(path, 'https://x'),
        user: u,
        signal: new AbortController().signal,
        onClassified: (fs, pl) => seen.push(`${fs.name}/${pl.name}`),
        execute: () => Promise.resolve(),
      });
      return seen.at(-1);
    };
    return (async () => {
      assert.equal(await classify(user('admin', 'system:masters')), 'exempt/exempt');
      assert.equal(await classify(user('alice', 'system:authenticated')), 'catch-all/catch-all');
      const { levels, schemas } = bootstrap();
      fc.digestObjects(levels, schemas);
      assert.equal(await classify(user('admin', 'system:masters', 'system:authenticated')), 'exempt/exempt');
      assert.equal(await classify(user('alice', 'system:authenticated')), 'global-default/global-default');
      assert.equal(await classify(user('alice', 'system:authenticated'), '/readyz'), 'probes/exempt');
      assert.equal(
        await classify(
          user('system:serviceaccount:kube-system:x', 'system:serviceaccounts', 'system:authenticated'),
        ),
        'kube-system-service-accounts/workload-high',
      );
      assert.equal(
        await classify(user('system:kube-scheduler', 'system:authenticated')),
        'kube-scheduler/workload-high',
      );
    })();
  });

  it('skips a dangling schema and writes its Dangling condition', async () => {
    const fc = new FlowController({ serverConcurrencyLimit: 600, requestWaitLimit: 15, log });
    const written: [string, FlowSchemaCondition][] = [];
    const { levels, schemas } = bootstrap();
    const dangling = schema(
      'dangling',
      5,
      { subjects: [{ kind: 'Group', group: { name: '*' } }], resourceRules: [everyResource] },
      'missing',
    );
    const stop = new AbortController();
    const ran = fc.run(
      {
        run: (onChange, signal) => {
          onChange(levels, [...schemas, dangling]);
          return new Promise((r) => signal.addEventListener('abort', () => r()));
        },
        writeFlowSchemaCondition: (name, c) => {
          written.push([name, c]);
          return Promise.resolve();
        },
      },
      stop.signal,
    );
    await new Promise((r) => setImmediate(r));
    stop.abort();
    await ran;
    assert.ok(!fc.flowSchemas.some((s) => s.name === 'dangling'));
    const cond = written.find(([n]) => n === 'dangling')![1];
    assert.deepEqual(
      { ...cond, lastTransitionTime: '' },
      {
        type: 'Dangling',
        status: 'True',
        lastTransitionTime: '',
        reason: 'NotFound',
        message:
          'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object',
      },
    );
    const found = written.find(([n]) => n === 'global-default')![1];
    assert.equal(found.status, 'False');
    assert.equal(found.reason, 'Found');
    assert.match(found.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('hashes flows as upstream: sha256(schema NUL distinguisher), first 8 bytes little-endian', () => {
    // sha256("global-default\0alice")
    assert.equal(typeof hashFlowID('global-default', 'alice'), 'bigint');
    assert.notEqual(hashFlowID('global-default', 'alice'), hashFlowID('global-default', 'bob'));
    assert.notEqual(hashFlowID('a', 'bc'), hashFlowID('ab', 'c'));
  });
});

describe('concurrency allocation (conc_alloc.go)', () => {
  it('shares in proportion to targets within bounds', () => {
    assert.deepEqual(
      computeConcurrencyAllocation(10, [
        { target: 1, lowerBound: 0, upperBound: 10 },
        { target: 3, lowerBound: 0, upperBound: 10 },
      ]).allocs,
      [2.5, 7.5],
    );
    const { allocs } = computeConcurrencyAllocation(10, [
      { target: 1, lowerBound: 0, upperBound: 10 },
      { target: 9, lowerBound: 0, upperBound: 5 },
    ]);
    assert.deepEqual(allocs, [5, 5]);
    assert.throws(
      () => computeConcurrencyAllocation(1, [{ target: 2, lowerBound: 2, upperBound: 3 }]),
      /lower bounds sum to 2/,
    );
  });
});

describe('debug output', () => {
  it('lays cells out as Go tabwriter (minwidth 8, padding 1)', () => {
    assert.equal(
      tabwrite([
        ['a,', 'bb,', 'c'],
        ['longer-name,', 'x,', 'y'],
      ]),
      'a,           bb,     c\nlonger-name, x,      y\n',
    );
  });

  it('prints seat-seconds as upstream SeatSeconds.String()', () => {
    assert.equal(seatSeconds(0), '0.00000000ss');
    assert.equal(seatSeconds(0.003), '0.00300000ss');
    assert.equal(seatSeconds(12.5), '12.50000000ss');
  });
});

describe('work estimates (request/list_work_estimator.go)', () => {
  it('weighs a list by the stored objects it processes, within the level max seats', () => {
    let now = 0;
    const counts = new ObjectCountTracker(() => now);
    counts.set('configmaps', 300);
    counts.set('deployments.apps', 5000);
    const seats = (path: string, max = 8) =>
      estimateWork(req('GET', path), new URL(path, 'https://x'), max, counts).initialSeats;
    // From storage: twice the objects (read and filtered), 100 a seat.
    assert.equal(seats('/api/v1/namespaces/a/configmaps'), 6);
    assert.equal(seats('/api/v1/namespaces/a/configmaps?limit=50'), 1);
    // From the watch cache (resourceVersion=0): the stored objects.
    assert.equal(seats('/api/v1/namespaces/a/configmaps?resourceVersion=0'), 3);
    assert.equal(seats('/api/v1/namespaces/a/configmaps?labelSelector=a%3Db'), 6);
    assert.equal(seats('/apis/apps/v1/deployments'), 8);
    assert.equal(seats('/apis/apps/v1/deployments', 0), 10);
    assert.equal(seats('/api/v1/namespaces/a/configmaps/one'), 1);
    assert.equal(seats('/api/v1/secrets'), 1);
    assert.equal(
      estimateWork(req('POST', '/api/v1/namespaces/a/configmaps'), new URL('https://x/'), 8, counts)
        .initialSeats,
      1,
    );
    now += 3 * 60_000 + 1;
    assert.equal(seats('/api/v1/namespaces/a/configmaps'), 8);
    counts.set('configmaps', -1);
    assert.equal(seats('/api/v1/namespaces/a/configmaps'), 8);
  });

  it('gives a queuing level upstream max seats', () => {
    assert.equal(levelMaxSeats(49, 6), 8);
    assert.equal(levelMaxSeats(98, 6), 15);
    assert.equal(levelMaxSeats(25, 4), 4);
    assert.equal(levelMaxSeats(1, 8), 1);
  });
});
