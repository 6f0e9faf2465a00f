/**
 * With kubectl 1.27 against `nanokube serve --nodes 1`: `kubectl logs` of a container whose
 * program the simulated node follows prints what it printed; of one it does not, the node's
 * deterministic lines (line n written n seconds after the container started); `--tail`, `--timestamps` (RFC 3339 with nanoseconds), `-c` and the default
 * container of a two-container pod, `--previous` and `-f` behave as with a real kubelet, and a
 * completed pod's log ends when its container finished.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const line = (n: number | string, container: string, pod: string): string =>
  `simulated log line ${n} from container ${container} of pod default/${pod} on node nanokube-node-0`;
const anyLine = (container: string, pod: string): RegExp =>
  new RegExp(`^${line('(\\d+)', container, pod).replaceAll('/', '\\/')}$`);

describe('kubectl 1.27: logs of pods on a simulated node', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '1'] });

  /** `kubectl logs <args>` once it has at least `n` lines. */
  const logsWith = (n: number, args: readonly string[]): Promise<string[]> =>
    until(`${n} log lines from ${args.join(' ')}`, async () => {
      const r = await s.run(['logs', ...args]);
      if (r.code !== 0) return undefined;
      const l = r.stdout === '' ? [] : lines(r.stdout);
      return l.length >= n ? l : undefined;
    });

  it('kubectl run of a script: its log is what it printed', async () => {
    await s.namespaceReady('default');
    assert.equal(
      await s.ok([
        'run',
        'echoer',
        '--image=busybox',
        '--restart=Never',
        '--',
        'sh',
        '-c',
        'echo hi; echo there',
      ]),
      'pod/echoer created\n',
    );
    await until('echoer Succeeded', async () => {
      const phase = await s.ok(['get', 'pod', 'echoer', '-o', 'jsonpath={.status.phase}']);
      return phase === 'Succeeded' ? phase : undefined;
    });
    assert.equal(await s.ok(['logs', 'echoer']), 'hi\nthere\n');
    assert.equal(await s.ok(['logs', 'echoer', '--tail=1']), 'there\n');
  });

  it('kubectl run of a program the node does not know: the Running pod prints simulated lines', async () => {
    assert.equal(
      await s.ok(['run', 'logger', '--image=example.com/logger:1', '--restart=Never', '--', '/app/log']),
      'pod/logger created\n',
    );
    await s.ok(['wait', '--for=condition=Ready', 'pod/logger', '--timeout=60s']);
    const out = await logsWith(1, ['logger']);
    assert.equal(out[0], line(1, 'logger', 'logger'));
    out.forEach((l, i) => assert.equal(l, line(i + 1, 'logger', 'logger')));
  });

  it('a completed pod: the log ends when its container finished, and -f returns', async () => {
    await until('logger Succeeded', async () => {
      const phase = await s.ok(['get', 'pod', 'logger', '-o', 'jsonpath={.status.phase}']);
      return phase === 'Succeeded' ? phase : undefined;
    });
    const [started, finished] = (
      await s.ok([
        'get',
        'pod',
        'logger',
        '-o',
        'jsonpath={.status.containerStatuses[0].state.terminated.startedAt} {.status.containerStatuses[0].state.terminated.finishedAt}',
      ])
    ).split(' ');
    const count = Math.floor((Date.parse(finished!) - Date.parse(started!)) / 1000);
    const first = await s.ok(['logs', 'logger']);
    assert.equal(first === '' ? 0 : lines(first).length, count, first);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await s.ok(['logs', 'logger']), first);
    assert.equal(await s.ok(['logs', '-f', 'logger'], { timeoutMs: 15_000 }), first);
  });

  it('--tail=2 prints exactly the last 2 lines; --timestamps prefixes RFC 3339 nanoseconds', async () => {
    await s.ok(['run', 'web', '--image=nginx']);
    await s.ok(['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
    await logsWith(3, ['web']);
    const tail = lines(await s.ok(['logs', 'web', '--tail=2']));
    assert.equal(tail.length, 2, tail.join('\n'));
    const n = tail.map((l) => Number(anyLine('web', 'web').exec(l)?.[1]));
    assert.ok(n[0]! >= 2 && n[1] === n[0]! + 1, tail.join('\n'));

    const started = Date.parse(
      await s.ok([
        'get',
        'pod',
        'web',
        '-o',
        'jsonpath={.status.containerStatuses[0].state.running.startedAt}',
      ]),
    );
    const stamped = lines(await s.ok(['logs', 'web', '--timestamps', '--tail=2']));
    assert.equal(stamped.length, 2, stamped.join('\n'));
    for (const l of stamped) {
      const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z) (.*)$/.exec(l);
      assert.ok(m !== null, l);
      const k = Number(anyLine('web', 'web').exec(m[2]!)?.[1]);
      // Line k was written k seconds after the container started.
      assert.equal(Date.parse(m[1]!), started + k * 1000, l);
    }
  });

  it('a two-container pod: -c picks one; without -c kubectl defaults to the first', async () => {
    const manifest = s.kubectl.file(
      'two.yaml',
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: two}',
        'spec:',
        '  containers:',
        '  - {name: a, image: example.com/app:1, command: [/app/serve]}',
        '  - {name: b, image: example.com/app:1, command: [/app/serve]}',
        '',
      ].join('\n'),
    );
    await s.ok(['apply', '-f', manifest]);
    await s.ok(['wait', '--for=condition=Ready', 'pod/two', '--timeout=60s']);
    const b = await logsWith(2, ['two', '-c', 'b']);
    b.forEach((l, i) => assert.equal(l, line(i + 1, 'b', 'two')));
    assert.equal(
      lines(await s.ok(['logs', 'two', '-c', 'a', '--tail=1']))[0]!.includes('container a '),
      true,
    );

    // kubectl 1.27 picks the first container itself and says so on stderr (no server error).
    const defaulted = await s.run(['logs', 'two', '--tail=1']);
    assert.equal(defaulted.code, 0, defaulted.stderr);
    assert.equal(defaulted.stderr, 'Defaulted container "a" out of: a, b\n');
    assert.match(lines(defaulted.stdout)[0]!, anyLine('a', 'two'));

    // The server's own answer without a container, as kube-apiserver gives it.
    const raw = await s.run(['get', '--raw', '/api/v1/namespaces/default/pods/two/log']);
    assert.equal(raw.code, 1);
    assert.equal(
      raw.stderr,
      'Error from server (BadRequest): a container name must be specified for pod two, choose one of: [a b]\n',
    );

    // The default-container annotation is honoured, silently.
    await s.ok(['annotate', 'pod', 'two', 'kubectl.kubernetes.io/default-container=b']);
    const annotated = await s.run(['logs', 'two', '--tail=1']);
    assert.equal(annotated.code, 0, annotated.stderr);
    assert.equal(annotated.stderr, '');
    assert.match(lines(annotated.stdout)[0]!, anyLine('b', 'two'));

    // One line per container (their order is not asserted: it is kubectl's).
    const all = lines(await s.ok(['logs', 'two', '--all-containers', '--tail=1']));
    assert.equal(all.length, 2, all.join('\n'));
    assert.ok(
      all.some((l) => anyLine('a', 'two').test(l)),
      all.join('\n'),
    );
    assert.ok(
      all.some((l) => anyLine('b', 'two').test(l)),
      all.join('\n'),
    );

    const bad = await s.run(['logs', 'two', '-c', 'zz']);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'error: container zz is not valid for pod two\n');
  });

  it('--previous without a restart and a missing pod fail as upstream', async () => {
    const prev = await s.run(['logs', 'web', '--previous']);
    assert.equal(prev.code, 1);
    assert.equal(
      prev.stderr,
      'Error from server (BadRequest): previous terminated container "web" in pod "web" not found\n',
    );
    const missing = await s.run(['logs', 'nosuch']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'Error from server (NotFound): pods "nosuch" not found\n');
  });

  it('kubectl logs -f streams new lines until it is killed', async () => {
    const w = s.kubectl.watch(['logs', '-f', 'web', '--tail=0']);
    try {
      const out = await w.waitFor(/\n/, 20_000);
      const got = lines(out);
      assert.ok(got.length >= 1);
      for (const l of got) assert.match(l, anyLine('web', 'web'));
    } finally {
      await w.kill();
    }
    // kubectl ended on the signal, and the pod is still there.
    assert.equal(await s.ok(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}']), 'Running');
  });

  itStopsCleanly(s);
});
