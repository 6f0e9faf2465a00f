import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { PodSim } from './pod-sim.js';
import type { PodExecOutcome } from './pod-sim.js';

function sim(
  containers: JsonObject[],
  o: { adopted?: boolean; volumes?: JsonObject[]; spec?: JsonObject; metadata?: JsonObject } = {},
): PodSim {
  const pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u-1', ...(o.metadata ?? {}) },
    spec: { containers, ...(o.volumes !== undefined ? { volumes: o.volumes } : {}), ...(o.spec ?? {}) },
    status: {},
  };
  return new PodSim({
    pod,
    nodeFiles: new Map([['/etc/hosts', nodeHosts]]),
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
const nodeHosts = '127.0.0.1\tlocalhost\n172.18.0.2\tnanokube-node-0\n';
const agnhost = { name: 'agnhost', image: 'registry.k8s.io/e2e-test-images/agnhost:2.43', args: ['pause'] };
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

  test('/etc/resolv.conf is known with dnsPolicy None, and agnhost dns-suffix and dns-server-list read it', () => {
    const s = sim([agnhost], {
      spec: {
        dnsPolicy: 'None',
        dnsConfig: {
          nameservers: ['1.1.1.1'],
          searches: ['resolv.conf.local'],
          options: [{ name: 'ndots', value: '2' }],
        },
      },
    });
    s.advance(1000);
    assert.equal(
      ran(s.exec('agnhost', ['cat', '/etc/resolv.conf'], '', 1000)).out,
      'search resolv.conf.local\nnameserver 1.1.1.1\noptions ndots:2\n',
    );
    assert.equal(ran(s.exec('agnhost', ['/agnhost', 'dns-suffix'], '', 1000)).out, 'resolv.conf.local\n');
    assert.equal(ran(s.exec('agnhost', ['/agnhost', 'dns-server-list'], '', 1000)).out, '1.1.1.1\n');
    // Another policy starts from the node's file (no cluster DNS is configured): not known.
    const clusterFirst = sim([agnhost]);
    clusterFirst.advance(1000);
    assert.equal(clusterFirst.exec('agnhost', ['/agnhost', 'dns-suffix'], '', 1000).kind, 'unknowable');
  });

  test("the node's /etc/hosts: on the host network, and through a hostPath volume of that file", () => {
    const hostPath = [{ name: 'h', hostPath: { path: '/etc/hosts', type: 'FileOrCreate' } }];
    const mounted = { ...agnhost, volumeMounts: [{ name: 'h', mountPath: '/etc/hosts-original' }] };
    const s = sim([mounted], { volumes: hostPath });
    s.advance(1000);
    assert.match(
      ran(s.exec('agnhost', ['cat', '/etc/hosts'], '', 1000)).out,
      /^# Kubernetes-managed hosts file/,
    );
    assert.equal(ran(s.exec('agnhost', ['cat', '/etc/hosts-original'], '', 1000)).out, nodeHosts);
    const host = sim([agnhost], { spec: { hostNetwork: true } });
    host.advance(1000);
    assert.equal(ran(host.exec('agnhost', ['cat', '/etc/hosts'], '', 1000)).out, nodeHosts);
  });

  test('a subPathExpr mount shows the directory it expands to', () => {
    const c = {
      name: 'main',
      image: 'busybox',
      command: ['sleep', '3600'],
      env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      volumeMounts: [
        { name: 'data', mountPath: '/subpath_mount', subPathExpr: 'mypath/$(POD_NAME)' },
        { name: 'data', mountPath: '/volume_mount' },
      ],
    };
    const s = sim([c], { volumes: shared });
    s.advance(1000);
    assert.equal(
      ran(s.exec('main', ['sh', '-c', 'touch /volume_mount/mypath/p/test.log'], '', 1000)).code,
      0,
    );
    assert.equal(ran(s.exec('main', ['sh', '-c', 'test -f /subpath_mount/test.log'], '', 1000)).code, 0);
  });

  test("httpd serves its document root: moving index.html away fails the readiness probe until it is back (the StatefulSet specs' breakHTTPProbe)", () => {
    const httpd = {
      name: 'webserver',
      image: 'registry.k8s.io/e2e-test-images/httpd:2.4.38-4',
      readinessProbe: {
        httpGet: { path: '/index.html', port: 80 },
        periodSeconds: 1,
        successThreshold: 1,
        failureThreshold: 1,
      },
    };
    const s = sim([httpd]);
    const rt = { hostIP: '172.18.0.2', podIPs: ['10.244.0.5'], startTime: 0 };
    const ready = (ms: number): boolean => {
      for (let t = 0; t <= ms; t += 1000) s.advance(t);
      const st = s.status(rt, ms) as { conditions?: { type: string; status: string }[] };
      return st.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    };
    assert.equal(ready(3000), true);
    const broke = ran(
      s.exec(
        'webserver',
        ['/bin/sh', '-x', '-c', 'mv -v /usr/local/apache2/htdocs/index.html /tmp/ || true'],
        '',
        3000,
      ),
    );
    assert.deepEqual(broke, {
      code: 0,
      out: "'/usr/local/apache2/htdocs/index.html' -> '/tmp/index.html'\n",
      err: '+ mv -v /usr/local/apache2/htdocs/index.html /tmp/\n',
    });
    assert.equal(ready(6000), false);
    // Idempotent: the second move fails inside `|| true`.
    const again = ran(
      s.exec(
        'webserver',
        ['/bin/sh', '-x', '-c', 'mv -v /usr/local/apache2/htdocs/index.html /tmp/ || true'],
        '',
        6000,
      ),
    );
    assert.equal(again.code, 0);
    assert.match(
      again.err,
      /mv: can't rename '\/usr\/local\/apache2\/htdocs\/index.html': No such file or directory\n\+ true\n$/,
    );
    ran(
      s.exec(
        'webserver',
        ['/bin/sh', '-x', '-c', 'mv -v /tmp/index.html /usr/local/apache2/htdocs/ || true'],
        '',
        6000,
      ),
    );
    assert.equal(ready(9000), true);
  });

  test('an ephemeral container added to a running pod starts, runs its script, takes exec, and never restarts', () => {
    const target = { name: 'target', image: 'busybox', command: ['/bin/sleep'], args: ['10000'] };
    const s = sim([target]);
    s.advance(1000);
    const debugger_ = {
      name: 'debugger',
      image: 'busybox',
      command: ['/bin/sh', '-c', 'while true; do echo polo; sleep 2; done'],
      stdin: true,
      tty: true,
    };
    const pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u-1' },
      spec: { containers: [target], ephemeralContainers: [debugger_] },
    };
    assert.equal(s.startEphemeral(pod, 2000), true);
    assert.equal(s.startEphemeral(pod, 2500), false);
    s.advance(5000);
    const st = s.status({ hostIP: '172.18.0.2', podIPs: ['10.244.0.5'], startTime: 0 }, 5000) as {
      ephemeralContainerStatuses?: { name: string; ready: boolean; state: { running?: unknown } }[];
    };
    assert.equal(st.ephemeralContainerStatuses?.[0]?.name, 'debugger');
    assert.ok(st.ephemeralContainerStatuses?.[0]?.state.running);
    assert.equal(st.ephemeralContainerStatuses?.[0]?.ready, false);
    assert.equal(ran(s.exec('debugger', ['/bin/echo', 'marco'], '', 5000)).out, 'marco\n');
    assert.match(
      s
        .output('debugger', false, 5000)
        ?.chunks.map((c) => c.text)
        .join('') ?? '',
      /^polo\npolo\n/,
    );
  });

  test('directories: a mount root, the subPath directory the kubelet made, what holds files; an image directory is unknowable', () => {
    const c = {
      name: 'main',
      image: 'busybox',
      command: ['sh', '-c', 'test -d /testcontainer/p; echo $?; sleep 3600'],
      env: [{ name: 'POD_NAME', value: 'p' }],
      volumeMounts: [
        { name: 'data', mountPath: '/logscontainer', subPathExpr: '$(POD_NAME)' },
        { name: 'data', mountPath: '/testcontainer' },
      ],
    };
    const s = sim([c], { volumes: shared });
    s.advance(1000);
    // The upstream spec 'should allow substituting values in a volume subpath' judges this log.
    assert.equal(
      s
        .output('main', false, 1000)
        ?.chunks.map((x) => x.text)
        .join(''),
      '0\n',
    );
    const isDir = (path: string): number | undefined =>
      ran(s.exec('main', ['test', '-d', path], '', 1000)).code;
    assert.equal(isDir('/testcontainer'), 0);
    assert.equal(isDir('/testcontainer/other'), 1);
    assert.equal(isDir('/tmp'), 0);
    assert.equal(ran(s.exec('main', ['sh', '-c', 'echo x > /tmp/d/f'], '', 1000)).code, 0);
    assert.equal(isDir('/tmp/d'), 0);
    assert.equal(isDir('/tmp/d/f'), 1);
    assert.equal(s.exec('main', ['test', '-d', '/usr/local/lib'], '', 1000).kind, 'unknowable');
  });
});
