import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { PodSim } from './pod-sim.js';
import type { PodExecOutcome } from './pod-sim.js';

function sim(containers: JsonObject[], o: { adopted?: boolean; volumes?: JsonObject[] } = {}): PodSim {
  const pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u-1' },
    spec: { containers, ...(o.volumes !== undefined ? { volumes: o.volumes } : {}) },
    status: {},
  };
  return new PodSim({
    pod,
    nodeFiles: new Map(),
    startAt: 0,
    defaultRunMs: 5000,
    ...(o.adopted === true ? { adopted: true } : {}),
    envContext: { podIPs: ['10.244.0.5'], hostIP: '172.18.0.2' },
  });
}

function ran(r: PodExecOutcome): { code: number | undefined; out: string; err: string } {
  if (r.kind !== 'ran') assert.fail(`expected the command to run, got ${JSON.stringify(r)}`);
  const text = (fd: 1 | 2): string =>
    r.output
      .filter((c) => c.fd === fd)
      .map((c) => c.text)
      .join('');
  return { code: r.code, out: text(1), err: text(2) };
}

const shared = [{ name: 'data', emptyDir: {} }];
const main = {
  name: 'main',
  image: 'busybox',
  command: ['sh', '-c', 'echo up > /tmp/up; sleep 3600'],
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
};
const side = {
  name: 'side',
  image: 'busybox',
  command: ['sleep', '3600'],
  volumeMounts: [{ name: 'data', mountPath: '/shared' }],
};

describe('a command run in a simulated container (kubectl exec)', () => {
  test("sees the program's files, its exit status, stdout and stderr apart, and stdin", () => {
    const s = sim([main], { volumes: shared });
    s.advance(1000);
    assert.deepEqual(ran(s.exec('main', ['cat', '/tmp/up'], '', 1000)), { code: 0, out: 'up\n', err: '' });
    assert.deepEqual(ran(s.exec('main', ['sh', '-c', 'echo o; echo e >&2; exit 7'], '', 1000)), {
      code: 7,
      out: 'o\n',
      err: 'e\n',
    });
    assert.deepEqual(ran(s.exec('main', ['cat'], 'typed\n', 1000)), { code: 0, out: 'typed\n', err: '' });
    assert.match(
      ran(s.exec('main', ['cat', '/etc/hosts'], '', 1000)).out,
      /^# Kubernetes-managed hosts file\.\n/,
    );
  });

  test('what it writes stays: its own files for the container, an emptyDir for the pod', () => {
    const s = sim([main, side], { volumes: shared });
    s.advance(1000);
    assert.equal(
      ran(s.exec('main', ['sh', '-c', 'echo a > /tmp/a; echo b > /data/b; rm /tmp/up'], '', 1000)).code,
      0,
    );
    assert.equal(ran(s.exec('main', ['cat', '/tmp/a'], '', 2000)).out, 'a\n');
    assert.equal(ran(s.exec('main', ['test', '-f', '/tmp/up'], '', 2000)).code, 1);
    assert.equal(ran(s.exec('side', ['cat', '/shared/b'], '', 2000)).out, 'b\n');
    // The other container has its own /tmp.
    assert.equal(ran(s.exec('side', ['cat', '/tmp/a'], '', 2000)).code, 1);
  });

  test('sleep takes its time; a loop that never ends has no exit status', () => {
    const s = sim([main], { volumes: shared });
    s.advance(1000);
    const slept = s.exec('main', ['sh', '-c', 'echo a; sleep 2; echo b'], '', 1000);
    assert.equal(slept.kind === 'ran' && slept.elapsedMs, 2000);
    assert.deepEqual(slept.kind === 'ran' && slept.output.map((c) => c.at), [0, 2000]);
    const forever = s.exec('main', ['sh', '-c', 'while true; do sleep 1; done'], '', 1000);
    assert.equal(forever.kind === 'ran' && forever.code, undefined);
  });

  test('refused where the simulator cannot know: an image binary, files of a program not followed', () => {
    const s = sim([main], { volumes: shared });
    s.advance(1000);
    assert.deepEqual(s.exec('main', ['nginx', '-v'], '', 1000), {
      kind: 'unknowable',
      reason: 'command nginx',
    });
    const adopted = sim([main], { adopted: true, volumes: shared });
    adopted.advance(1000);
    const r = adopted.exec('main', ['cat', '/tmp/up'], '', 1000);
    assert.equal(r.kind, 'unknowable');
    // What exec itself wrote is known, even there.
    assert.equal(ran(adopted.exec('main', ['sh', '-c', 'echo x > /tmp/x'], '', 1000)).code, 0);
    assert.equal(ran(adopted.exec('main', ['cat', '/tmp/x'], '', 1000)).out, 'x\n');
  });

  test('a container that is not running, or not the pod’s, runs nothing', () => {
    const s = sim([{ name: 'once', image: 'busybox', command: ['true'] }]);
    s.advance(0);
    s.advance(1000);
    assert.deepEqual(s.exec('once', ['true'], '', 1000), { kind: 'not-running' });
    assert.deepEqual(s.exec('nope', ['true'], '', 1000), { kind: 'not-running' });
  });
});
