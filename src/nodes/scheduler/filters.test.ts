import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import type { JsonObject } from '../../util/json.js';
import {
  fitErrorMessage,
  insufficientResources,
  prepareCycle,
  runFilters,
  toleratesTaint,
} from './filters.js';
import type { ClusterView } from './filters.js';
import { NodeInfo, nodeView } from './node-info.js';
import { parsePod } from './pod-info.js';
import { numFeasibleNodesToFind } from './scheduler.js';
import { balancedAllocationScore, leastAllocatedScore, selectHost } from './score.js';
import { SchedulingQueue } from './queue.js';
import { preempt } from './preemption.js';
import { Nominator, runFiltersWithNominated } from './nominator.js';

function node(
  name: string,
  extra: {
    labels?: JsonObject;
    spec?: JsonObject;
    cpu?: string;
    ready?: string;
    allocatable?: JsonObject;
  } = {},
): NodeInfo {
  const info = new NodeInfo(name);
  info.node = nodeView({
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
    spec: extra.spec ?? {},
    status: {
      allocatable: { cpu: extra.cpu ?? '2', memory: '4Gi', pods: '3', ...(extra.allocatable ?? {}) },
      conditions: [{ type: 'Ready', status: extra.ready ?? 'True' }],
    },
  });
  return info;
}

function pod(name: string, spec: JsonObject = {}, meta: JsonObject = {}): ReturnType<typeof parsePod> {
  return parsePod({
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...meta },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });
}

const cpu = (m: string, extra: JsonObject = {}): JsonObject => ({
  containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: m } } }],
  ...extra,
});

function cluster(nodes: NodeInfo[]): ClusterView {
  const anti = nodes.flatMap((n) =>
    [...n.pods.values()].filter((p) => p.antiAffinityTerms.length > 0).map((p) => ({ pod: p, node: n })),
  );
  return { nodes, podsWithAntiAffinity: anti, namespaceLabels: () => undefined };
}

function filter(p: ReturnType<typeof parsePod>, n: NodeInfo, all: NodeInfo[] = [n]): string[] {
  const f = runFilters(p, n, prepareCycle(p, cluster(all)), () => undefined);
  return f === undefined ? [] : [...f.reasons];
}

describe('scheduler filters', () => {
  it('resource fit counts init containers (max), overhead and the pod count', () => {
    const n = node('n');
    n.addPod({ ...pod('a', cpu('1')), nodeName: 'n' });
    assert.deepEqual(filter(pod('b', cpu('1')), n), []);
    assert.deepEqual(filter(pod('b', cpu('1001m')), n), ['Insufficient cpu']);
    const init = pod('c', {
      ...cpu('100m'),
      initContainers: [{ name: 'i', image: 'x', resources: { requests: { cpu: '1500m' } } }],
    });
    assert.equal(init.resources.requests.get('cpu'), 1500);
    assert.deepEqual(filter(init, n), ['Insufficient cpu']);
    const overhead = pod('d', { ...cpu('900m'), overhead: { cpu: '200m' } });
    assert.deepEqual(filter(overhead, n), ['Insufficient cpu']);
    n.addPod({ ...pod('e'), nodeName: 'n' });
    n.addPod({ ...pod('f'), nodeName: 'n' });
    assert.deepEqual(
      insufficientResources(
        pod('g', {
          containers: [
            { name: 'c', image: 'x', resources: { requests: { cpu: '2', 'example.com/gpu': '1' } } },
          ],
        }),
        n,
        n.node!,
      ),
      ['Too many pods', 'Insufficient cpu', 'Insufficient example.com/gpu'],
    );
  });

  it('taints: NoSchedule/NoExecute filter, tolerations match as upstream, NotReady nodes are tainted', () => {
    const t = { key: 'k', value: 'v', effect: 'NoSchedule' };
    assert.equal(toleratesTaint({ key: 'k', operator: 'Equal', value: 'v', effect: '' }, t), true);
    assert.equal(toleratesTaint({ key: '', operator: 'Exists', value: '', effect: '' }, t), true);
    assert.equal(toleratesTaint({ key: 'k', operator: 'Equal', value: 'w', effect: '' }, t), false);
    assert.equal(toleratesTaint({ key: 'k', operator: 'Exists', value: '', effect: 'NoExecute' }, t), false);
    const tainted = node('n', { spec: { taints: [t, { key: 'soft', effect: 'PreferNoSchedule' }] } });
    assert.deepEqual(filter(pod('p'), tainted), ['node(s) had untolerated taint {k: v}']);
    assert.deepEqual(filter(pod('p', { tolerations: [{ key: 'k', operator: 'Exists' }] }), tainted), []);
    assert.deepEqual(filter(pod('p'), node('n', { ready: 'False' })), [
      'node(s) had untolerated taint {node.kubernetes.io/not-ready: }',
    ]);
    assert.deepEqual(filter(pod('p'), node('n', { ready: 'Unknown' })), [
      'node(s) had untolerated taint {node.kubernetes.io/unreachable: }',
    ]);
    const cordoned = node('n', { spec: { unschedulable: true } });
    assert.deepEqual(filter(pod('p'), cordoned), ['node(s) were unschedulable']);
    assert.deepEqual(
      filter(
        pod('p', {
          tolerations: [
            { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
          ],
        }),
        cordoned,
      ),
      [],
    );
  });

  it('node affinity: nodeSelector and required terms (ORed terms, ANDed expressions, Gt/Lt, fields)', () => {
    const n = node('n1', { labels: { zone: 'a', cores: '8' } });
    const aff = (terms: JsonObject[]): JsonObject => ({
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
      },
    });
    const no = ["node(s) didn't match Pod's node affinity/selector"];
    assert.deepEqual(filter(pod('p', { nodeSelector: { zone: 'a' } }), n), []);
    assert.deepEqual(filter(pod('p', { nodeSelector: { zone: 'b' } }), n), no);
    assert.deepEqual(
      filter(
        pod(
          'p',
          aff([
            { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
            { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['4'] }] },
          ]),
        ),
        n,
      ),
      [],
    );
    assert.deepEqual(
      filter(
        pod(
          'p',
          aff([
            {
              matchExpressions: [
                { key: 'zone', operator: 'In', values: ['a'] },
                { key: 'cores', operator: 'Lt', values: ['4'] },
              ],
            },
          ]),
        ),
        n,
      ),
      no,
    );
    assert.deepEqual(
      filter(pod('p', aff([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }])), n),
      [],
    );
    assert.deepEqual(filter(pod('p', aff([{}])), n), no);
    assert.deepEqual(
      filter(pod('p', aff([{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }])), n),
      [],
    );
  });

  it('host ports conflict on the same protocol and port unless both name different IPs', () => {
    const n = node('n');
    const ported = (ip?: string): JsonObject => ({
      containers: [
        {
          name: 'c',
          image: 'x',
          ports: [{ containerPort: 80, hostPort: 8080, ...(ip !== undefined ? { hostIP: ip } : {}) }],
        },
      ],
    });
    n.addPod({ ...pod('a', ported('10.0.0.1')), nodeName: 'n' });
    assert.deepEqual(filter(pod('b', ported('10.0.0.2')), n), []);
    assert.deepEqual(filter(pod('b', ported()), n), [
      "node(s) didn't have free ports for the requested pod ports",
    ]);
  });

  it('topology spread: skew against the emptiest eligible domain, minDomains, missing label', () => {
    const a1 = node('a1', { labels: { zone: 'a' } });
    const a2 = node('a2', { labels: { zone: 'a' } });
    const b1 = node('b1', { labels: { zone: 'b' } });
    const all = [a1, a2, b1];
    const spread = (extra: JsonObject = {}): JsonObject => ({
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'x' } },
          ...extra,
        },
      ],
    });
    a1.addPod({ ...pod('x1', {}, { labels: { app: 'x' } }), nodeName: 'a1' });
    const p = pod('x2', spread(), { labels: { app: 'x' } });
    assert.deepEqual(filter(p, a2, all), ["node(s) didn't match pod topology spread constraints"]);
    assert.deepEqual(filter(p, b1, all), []);
    // Three domains wanted, two exist: the global minimum counts as 0.
    const wantsThree = pod('x3', spread({ minDomains: 3, maxSkew: 1 }), { labels: { app: 'x' } });
    b1.addPod({ ...pod('x4', {}, { labels: { app: 'x' } }), nodeName: 'b1' });
    assert.deepEqual(filter(wantsThree, a2, all), ["node(s) didn't match pod topology spread constraints"]);
    const rack = pod('r', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
      ],
    });
    assert.deepEqual(filter(rack, a1, all), [
      "node(s) didn't match pod topology spread constraints (missing required label)",
    ]);
    // ScheduleAnyway constraints do not filter.
    const soft = pod('s', {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'rack', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
      ],
    });
    assert.deepEqual(filter(soft, a1, all), []);
  });

  it('inter-pod affinity: affinity, first pod of a self-affine group, anti-affinity both ways', () => {
    const n1 = node('n1');
    const n2 = node('n2');
    const all = [n1, n2];
    const term = { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' };
    const withDb = pod('web', {
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
    });
    // No db pod anywhere, and web is not a db: nowhere.
    assert.deepEqual(filter(withDb, n1, all), ["node(s) didn't match pod affinity rules"]);
    // A db pod with affinity to db pods may go first.
    const firstDb = pod(
      'db0',
      { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
      { labels: { app: 'db' } },
    );
    assert.deepEqual(filter(firstDb, n1, all), []);
    n2.addPod({ ...pod('db1', {}, { labels: { app: 'db' } }), nodeName: 'n2' });
    assert.deepEqual(filter(withDb, n1, all), ["node(s) didn't match pod affinity rules"]);
    assert.deepEqual(filter(withDb, n2, all), []);
    const awayFromDb = pod('cache', {
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
    });
    assert.deepEqual(filter(awayFromDb, n2, all), ["node(s) didn't match pod anti-affinity rules"]);
    assert.deepEqual(filter(awayFromDb, n1, all), []);
    // An existing pod's anti-affinity keeps db pods off its node.
    n1.addPod({ ...awayFromDb, nodeName: 'n1' });
    assert.deepEqual(filter(pod('db2', {}, { labels: { app: 'db' } }), n1, all), [
      "node(s) didn't satisfy existing pods anti-affinity rules",
    ]);
  });

  it('formats FitError messages as upstream', () => {
    assert.equal(
      fitErrorMessage(
        5,
        [
          { plugin: 'A', reasons: ['Insufficient memory'], unresolvable: false },
          { plugin: 'A', reasons: ['Insufficient memory', 'Insufficient cpu'], unresolvable: false },
          { plugin: 'B', reasons: ['node(s) had untolerated taint {dedicated: gpu}'], unresolvable: true },
        ],
        'preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod.',
      ),
      '0/5 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient memory. preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod..',
    );
  });

  it('numFeasibleNodesToFind follows the adaptive percentage', () => {
    assert.equal(numFeasibleNodesToFind(50), 50);
    assert.equal(numFeasibleNodesToFind(100), 100);
    assert.equal(numFeasibleNodesToFind(1000), 420);
    assert.equal(numFeasibleNodesToFind(5000), 500);
    assert.equal(numFeasibleNodesToFind(6000), 300);
    assert.equal(numFeasibleNodesToFind(200), 100);
  });
});

describe('scheduler scores', () => {
  it('least allocated and balanced allocation prefer the emptier, balanced node; ties go by name', () => {
    const busy = node('a');
    busy.addPod({ ...pod('x', cpu('1')), nodeName: 'a' });
    const idle = node('b');
    const p = pod('p', cpu('500m'));
    assert.ok(leastAllocatedScore(p, idle, idle.node!) > leastAllocatedScore(p, busy, busy.node!));
    assert.equal(balancedAllocationScore(p, idle, idle.node!), 87);
    assert.equal(selectHost(p, [busy, idle]), 1);
    assert.equal(selectHost(p, [node('d'), node('c')]), 1);
  });

  it('PreferNoSchedule taints and preferred node affinity steer placement', () => {
    const soft = node('a', { spec: { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] } });
    assert.equal(selectHost(pod('p'), [soft, node('b')]), 1);
    const pref = pod('q', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] },
            },
          ],
        },
      },
    });
    assert.equal(selectHost(pref, [node('a'), node('b', { labels: { zone: 'z' } })]), 1);
  });
});

describe('scheduling queue', () => {
  it('pops by priority, then age; unschedulable pods come back on helpful events after backoff', () => {
    const clock = new FakeClock(1000);
    const q = new SchedulingQueue(clock);
    q.add(pod('old', {}, { creationTimestamp: '2024-01-01T00:00:00Z' }));
    q.add(pod('new', {}, { creationTimestamp: '2024-01-02T00:00:00Z' }));
    q.add(pod('vip', { priority: 100 }, { creationTimestamp: '2024-01-03T00:00:00Z' }));
    assert.deepEqual(
      [q.pop()?.name, q.pop()?.name, q.pop()?.name, q.pop()],
      ['vip', 'old', 'new', undefined],
    );
    q.addUnschedulable(pod('spread'), new Set(['PodTopologySpread']));
    q.addUnschedulable(pod('fit'), new Set(['NodeResourcesFit']));
    q.moveOnEvent('AssignedPodAdd');
    assert.equal(q.pop(), undefined, 'in backoff');
    clock.advance(1000);
    assert.equal(q.pop()?.name, 'spread');
    assert.equal(q.pop(), undefined);
    q.moveOnEvent('AssignedPodDelete');
    assert.equal(q.pop()?.name, 'fit');
  });

  it('#7 wait() ends when the fake clock reaches the backoff, or at once on an add', async () => {
    const clock = new FakeClock(0);
    const q = new SchedulingQueue(clock);
    const abort = new AbortController();
    q.addBackoff(pod('retry'));
    assert.equal(q.nextBackoffMs(), 1000);
    let woke = false;
    const waiting = q.wait(q.nextBackoffMs() ?? 1000, abort.signal).then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(woke, false);
    assert.equal(q.pop(), undefined, 'still backing off');
    clock.advance(1000);
    await waiting;
    assert.equal(q.pop()?.name, 'retry');
    assert.equal(clock.sleepers, 0);
    const second = q.wait(60_000, abort.signal);
    q.add(pod('new'));
    await second;
    assert.equal(clock.sleepers, 0, 'the timer of a woken wait is cancelled');
  });
});

const noNominations = { nodeOf: () => '', ahead: () => [] };

describe('preemption', () => {
  it('picks victims of lower priority, reprieving what it can; explains when it cannot help', () => {
    const n1 = node('n1');
    const n2 = node('n2');
    n1.addPod({ ...pod('low1', cpu('1', { priority: 1 })), nodeName: 'n1' });
    n1.addPod({ ...pod('low2', cpu('1', { priority: 2 })), nodeName: 'n1' });
    n2.addPod({ ...pod('mid', cpu('2', { priority: 50 })), nodeName: 'n2' });
    const vip = pod('vip', cpu('1', { priority: 100 }));
    const state = prepareCycle(vip, cluster([n1, n2]));
    const failures = new Map([
      ['n1', { plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'], unresolvable: false }],
      ['n2', { plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'], unresolvable: false }],
    ]);
    const r = preempt(vip, [n1, n2], failures, state, () => undefined, noNominations);
    assert.equal(r.candidate?.node, 'n1');
    assert.deepEqual(
      r.candidate?.victims.map((v) => v.name),
      ['low1'],
    );
    const never = preempt(
      pod('x', cpu('1', { priority: 100, preemptionPolicy: 'Never' })),
      [n1],
      failures,
      state,
      () => undefined,
      noNominations,
    );
    assert.equal(never.message, 'preemption: not eligible due to preemptionPolicy=Never.');
    const equal = preempt(
      pod('y', cpu('1')),
      [n1, n2],
      new Map([...failures, ['n2', { plugin: 'TaintToleration', reasons: ['t'], unresolvable: true }]]),
      state,
      () => undefined,
      noNominations,
    );
    assert.equal(
      equal.message,
      'preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  it('keeps the room it freed for the preemptor and does not preempt twice (the e2e PreemptionExecutionPath)', () => {
    // A node with 1000 of an extended resource, three pods of priorities 1..3 using 200/300/450.
    const n = node('n1', { allocatable: { 'example.com/fakecpu': '1000', pods: '10' } });
    const want = (q: string, priority: number): JsonObject => ({
      priority,
      containers: [{ name: 'c', resources: { requests: { 'example.com/fakecpu': q } } }],
    });
    const p1 = { ...pod('p1', want('200', 1)), nodeName: 'n1' };
    const p2 = { ...pod('p2', want('300', 2)), nodeName: 'n1' };
    const p3 = { ...pod('p3', want('450', 3)), nodeName: 'n1' };
    for (const p of [p1, p2, p3]) n.addPod(p);
    const p4 = pod('p4', want('500', 4));
    const nominator = new Nominator();
    const nominated = {
      nodeOf: (p: ReturnType<typeof parsePod>) => nominator.nodeOf(p.key) ?? p.nominatedNodeName,
      ahead: (p: ReturnType<typeof parsePod>, at: string) => nominator.ahead(p, at),
    };
    const state = prepareCycle(p4, cluster([n]));
    const failures = new Map([
      [
        'n1',
        { plugin: 'NodeResourcesFit', reasons: ['Insufficient example.com/fakecpu'], unresolvable: false },
      ],
    ]);
    const r = preempt(p4, [n], failures, state, () => undefined, nominated);
    assert.deepEqual(r.candidate?.victims.map((v) => v.name).sort(), ['p1', 'p2']);
    nominator.set(p4, 'n1');
    // While the victims terminate, the preemptor waits instead of choosing more victims.
    n.addPod({ ...p1, terminating: true });
    n.addPod({ ...p2, terminating: true });
    const again = preempt(p4, [n], failures, state, () => undefined, nominated);
    assert.equal(again.message, 'preemption: not eligible due to a terminating pod on the nominated node.');
    // Once they are gone, their ReplicaSets' replacements do not fit in the room kept for p4...
    n.removePod(p1.key);
    n.removePod(p2.key);
    const replacement = pod('p1-again', want('200', 1));
    const rstate = prepareCycle(replacement, cluster([n]));
    const blocked = runFiltersWithNominated(
      replacement,
      n,
      rstate,
      () => undefined,
      nominator.ahead(replacement, 'n1'),
    );
    assert.deepEqual(blocked?.reasons, ['Insufficient example.com/fakecpu']);
    assert.equal(
      runFiltersWithNominated(replacement, n, rstate, () => undefined, []),
      undefined,
    );
    // ...while p4 itself fits.
    assert.equal(
      runFiltersWithNominated(p4, n, state, () => undefined, nominator.ahead(p4, 'n1')),
      undefined,
    );
  });
});
