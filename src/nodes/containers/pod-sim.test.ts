import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { PodSim } from './pod-sim.js';
import { restartCountPodSpec, subpathAnnotationPodSpec } from './testing/upstream-pods.js';

const rt = { hostIP: '172.18.0.2', podIPs: ['10.244.0.5'], startTime: 0 };
const busybox = 'registry.k8s.io/e2e-test-images/busybox:1.29-4';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';

function pod(spec: JsonObject): JsonObject {
  return { metadata: { name: 'p', namespace: 'ns', uid: 'u-1' }, spec, status: {} };
}

function sim(spec: JsonObject, defaultRunMs = 5000): PodSim {
  return new PodSim({ pod: pod(spec), nodeFiles: new Map(), startAt: 0, defaultRunMs });
}

type Status = {
  phase: string;
  conditions: { type: string; status: string; lastTransitionTime: string }[];
  containerStatuses: {
    restartCount: number;
    ready: boolean;
    started: boolean;
    state: {
      running?: unknown;
      waiting?: { reason: string; message?: string };
      terminated?: { exitCode: number; reason: string; message?: string };
    };
    lastState: { terminated?: { exitCode: number } };
  }[];
  initContainerStatuses?: Status['containerStatuses'];
};

/** Advances in 1 s steps (as the node would be woken) and returns the status at `ms`. */
function at(s: PodSim, ms: number): Status {
  for (let t = 0; t <= ms; t += 1000) s.advance(t);
  return s.status(rt, ms) as unknown as Status;
}

function ready(st: Status): boolean {
  return st.conditions.find((c) => c.type === 'Ready')?.status === 'True';
}

describe('simulated pod lifecycle', () => {
  test("the runtime spec's restart-count script: Always restarts twice and runs, OnFailure succeeds after one restart, Never fails", () => {
    const spec = restartCountPodSpec;
    const always = at(sim(spec('Always')), 60_000);
    assert.equal(always.phase, 'Running');
    assert.equal(always.containerStatuses[0]!.restartCount, 2);
    assert.ok(always.containerStatuses[0]!.state.running);
    assert.equal(ready(always), true);
    const onFailure = at(sim(spec('OnFailure')), 60_000);
    assert.equal(onFailure.phase, 'Succeeded');
    assert.equal(onFailure.containerStatuses[0]!.restartCount, 1);
    assert.equal(onFailure.containerStatuses[0]!.state.terminated?.exitCode, 0);
    const never = at(sim(spec('Never')), 60_000);
    assert.equal(never.phase, 'Failed');
    assert.equal(never.containerStatuses[0]!.restartCount, 0);
    assert.equal(never.containerStatuses[0]!.state.terminated?.reason, 'Error');
  });

  test('crash-loop back-off: at once, then 10 s, 20 s, with the kubelet message while waiting', () => {
    const s = sim({ containers: [{ name: 'c', image: busybox, command: ['/bin/sh', '-c', 'exit 2'] }] });
    assert.equal(at(s, 0).containerStatuses[0]!.restartCount, 1);
    const waiting = s.status(rt, 500) as unknown as Status;
    assert.equal(waiting.phase, 'Running');
    assert.deepEqual(waiting.containerStatuses[0]!.state.waiting, {
      reason: 'CrashLoopBackOff',
      message: 'back-off 10s restarting failed container=c pod=p_ns(u-1)',
    });
    assert.equal(waiting.containerStatuses[0]!.lastState.terminated?.exitCode, 2);
    assert.equal(s.nextEventAt(), 10_000);
    s.advance(10_000);
    assert.equal((s.status(rt, 10_000) as unknown as Status).containerStatuses[0]!.restartCount, 2);
    assert.equal(s.nextEventAt(), 30_000);
  });

  test('a readiness probe on a port the server does not listen on never passes; no restarts', () => {
    const s = sim({
      containers: [
        {
          name: 'test-webserver',
          image: agnhost,
          args: ['test-webserver'],
          ports: [{ containerPort: 80 }],
          readinessProbe: { httpGet: { path: '/', port: 81 } },
        },
      ],
    });
    const st = at(s, 120_000);
    assert.equal(st.phase, 'Running');
    assert.equal(ready(st), false);
    assert.equal(st.containerStatuses[0]!.restartCount, 0);
    // Nothing more can change: the node is not woken for it.
    assert.equal(s.nextEventAt(), undefined);
  });

  test('a readiness probe with an initial delay makes the pod ready only after it', () => {
    const s = sim({
      containers: [
        {
          name: 'w',
          image: agnhost,
          args: ['test-webserver'],
          ports: [{ containerPort: 80 }],
          readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 20 },
        },
      ],
    });
    assert.equal(ready(at(s, 19_000)), false);
    assert.equal(ready(at(s, 20_000)), true);
  });

  test('an exec liveness probe fails once the file is removed, and the container restarts', () => {
    const s = sim({
      containers: [
        {
          name: 'busybox',
          image: busybox,
          command: ['/bin/sh', '-c', 'echo ok >/tmp/health; sleep 10; rm -rf /tmp/health; sleep 600'],
          livenessProbe: {
            exec: { command: ['cat', '/tmp/health'] },
            initialDelaySeconds: 15,
            failureThreshold: 1,
          },
        },
      ],
    });
    assert.equal(at(s, 14_000).containerStatuses[0]!.restartCount, 0);
    const st = at(s, 16_000);
    assert.equal(st.containerStatuses[0]!.restartCount, 1);
    assert.equal(st.containerStatuses[0]!.lastState.terminated?.exitCode, 137);
    const kept = sim({
      containers: [
        {
          name: 'busybox',
          image: busybox,
          command: ['/bin/sh', '-c', 'echo ok >/tmp/health; sleep 600'],
          livenessProbe: {
            exec: { command: ['cat', '/tmp/health'] },
            initialDelaySeconds: 15,
            failureThreshold: 1,
          },
        },
      ],
    });
    assert.equal(at(kept, 300_000).containerStatuses[0]!.restartCount, 0);
  });

  test('agnhost liveness: /healthz fails after 10 s (restarts keep coming), its TCP port stays open', () => {
    const http = sim({
      containers: [
        {
          name: 'agnhost',
          image: agnhost,
          args: ['liveness'],
          livenessProbe: {
            httpGet: { path: '/healthz', port: 8080 },
            initialDelaySeconds: 5,
            failureThreshold: 1,
          },
        },
      ],
    });
    let last = 0;
    for (const t of [30_000, 60_000, 120_000, 240_000]) {
      const n = at(http, t).containerStatuses[0]!.restartCount;
      assert.ok(n > last, `restarts at ${t} ms: ${n}`);
      last = n;
    }
    const tcp = sim({
      containers: [
        {
          name: 'agnhost',
          image: agnhost,
          args: ['liveness'],
          livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 15, failureThreshold: 1 },
        },
      ],
    });
    assert.equal(at(tcp, 120_000).containerStatuses[0]!.restartCount, 0);
  });

  test('init containers: a failing one is restarted (Pending) or fails the pod (Never)', () => {
    const spec = (restartPolicy: string): JsonObject => ({
      restartPolicy,
      initContainers: [
        { name: 'init1', image: busybox, command: ['/bin/false'] },
        { name: 'init2', image: busybox, command: ['/bin/true'] },
      ],
      containers: [{ name: 'run1', image: busybox, command: ['/bin/true'] }],
    });
    const always = at(sim(spec('Always')), 60_000);
    assert.equal(always.phase, 'Pending');
    assert.ok(always.initContainerStatuses![0]!.restartCount >= 3);
    assert.equal(always.containerStatuses[0]!.state.waiting?.reason, 'PodInitializing');
    const never = at(sim(spec('Never')), 10_000);
    assert.equal(never.phase, 'Failed');
    assert.equal(never.initContainerStatuses![0]!.restartCount, 0);
    const ok = at(
      sim({
        restartPolicy: 'Never',
        initContainers: [{ name: 'i', image: busybox, command: ['/bin/true'] }],
        containers: [{ name: 'c', image: busybox, command: ['sh', '-c', 'sleep 3'] }],
      }),
      5_000,
    );
    assert.equal(ok.phase, 'Succeeded');
    assert.equal(ok.initContainerStatuses![0]!.state.terminated?.reason, 'Completed');
  });

  test('sleep N runs N seconds; an unknown program keeps the default run time', () => {
    const s = sim({
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: busybox, command: ['sleep', '30'] }],
    });
    assert.equal(at(s, 29_000).phase, 'Running');
    assert.equal(at(s, 30_000).phase, 'Succeeded');
    const unknown = sim({
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: 'perl', command: ['perl', '-e', '1'] }],
    });
    assert.equal(at(unknown, 4_000).phase, 'Running');
    assert.equal(at(unknown, 5_000).phase, 'Succeeded');
    const server = sim({ containers: [{ name: 'c', image: 'nginx' }] });
    assert.equal(at(server, 60_000).phase, 'Running');
    assert.equal(server.nextEventAt(), undefined);
  });

  test('termination messages: from the file, or from the log on error with FallbackToLogsOnError', () => {
    const msg = (
      args: string,
      policy: string | undefined,
      path = '/dev/termination-log',
    ): string | undefined => {
      const c: JsonObject = {
        name: 'c',
        image: busybox,
        command: ['/bin/sh', '-c'],
        args: [args],
        terminationMessagePath: path,
      };
      if (policy !== undefined) c['terminationMessagePolicy'] = policy;
      return at(sim({ restartPolicy: 'Never', containers: [c] }), 1_000).containerStatuses[0]!.state
        .terminated?.message;
    };
    assert.equal(msg('/bin/echo -n DONE > /dev/termination-log', undefined), 'DONE');
    assert.equal(
      msg('/bin/echo -n DONE > /dev/termination-custom-log', undefined, '/dev/termination-custom-log'),
      'DONE',
    );
    assert.equal(msg('/bin/echo -n DONE; /bin/false', 'FallbackToLogsOnError'), 'DONE');
    assert.equal(msg('/bin/echo -n DONE; /bin/true', 'FallbackToLogsOnError'), undefined);
    assert.equal(
      msg('/bin/echo -n OK > /dev/termination-log; /bin/echo DONE; /bin/true', 'FallbackToLogsOnError'),
      'OK',
    );
  });

  test('an image that does not exist never starts: ErrImagePull, then ImagePullBackOff', () => {
    const s = sim({ containers: [{ name: 'c', image: 'webserver:404' }] });
    const first = at(s, 0);
    assert.equal(first.phase, 'Pending');
    assert.equal(first.containerStatuses[0]!.state.waiting?.reason, 'ErrImagePull');
    assert.equal(s.nextEventAt(), 1000);
    const later = at(s, 60_000);
    assert.equal(later.phase, 'Pending');
    assert.deepEqual(later.containerStatuses[0]!.state.waiting, {
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "webserver:404"',
    });
    assert.equal(s.nextEventAt(), undefined);
    for (const image of [
      'foo:non-existent',
      'gcr.io/google_samples/gb-redisslave:nonexistent',
      'invalid.registry.k8s.io/invalid/alpine:3.1',
    ])
      assert.equal(
        at(sim({ containers: [{ name: 'c', image }] }), 2000).containerStatuses[0]!.state.waiting?.reason,
        'ImagePullBackOff',
        image,
      );
    assert.equal(at(sim({ containers: [{ name: 'c', image: 'nginx:1.25' }] }), 0).phase, 'Running');
  });

  test('what a container prints is its log; a read-only root file system refuses writes', () => {
    const hello = sim({
      containers: [{ name: 'c', image: busybox, command: ['sh', '-c', "echo 'Hello World' ; sleep 240"] }],
    });
    hello.advance(1000);
    assert.deepEqual(
      hello.output('c', false, 1000)?.chunks.map((c) => c.text),
      ['Hello World\n'],
    );
    const ro = sim({
      containers: [
        {
          name: 'c',
          image: busybox,
          command: ['/bin/sh', '-c', 'echo test > /file; sleep 240'],
          securityContext: { readOnlyRootFilesystem: true },
        },
      ],
    });
    ro.advance(1000);
    assert.deepEqual(
      ro.output('c', false, 1000)?.chunks.map((c) => c.text),
      ["/bin/sh: can't create /file: Read-only file system\n"],
    );
    assert.equal(at(ro, 10_000).phase, 'Running');
    // agnhost pause prints "Paused" (the kubectl specs wait for it); nginx's output is not known.
    const pause = sim({ containers: [{ name: 'c', image: agnhost }] });
    pause.advance(0);
    assert.deepEqual(
      pause.output('c', false, 0)?.chunks.map((c) => c.text),
      ['Paused\n'],
    );
    const nginx = sim({ containers: [{ name: 'c', image: 'nginx' }] });
    nginx.advance(0);
    assert.equal(nginx.output('c', false, 0), undefined);
    // An unknown program has no output of its own: the node's generated lines stand in.
    const unknown = sim({ containers: [{ name: 'c', image: 'example.com/app:1' }] });
    assert.equal(unknown.output('c', false, 0), undefined);
  });

  test('a probe reading a file that may come with the image is not judged: the pod gets ready', () => {
    const s = sim({
      containers: [
        {
          name: 'webserver',
          image: 'registry.k8s.io/e2e-test-images/httpd:2.4.38-4',
          readinessProbe: {
            exec: { command: ['test', '-f', '/usr/local/apache2/htdocs/index.html'] },
            periodSeconds: 1,
          },
        },
      ],
    });
    assert.equal(ready(at(s, 2000)), true);
  });

  test('activeDeadlineSeconds kills the containers and fails the pod (DeadlineExceeded)', () => {
    const s = sim({ containers: [{ name: 'c', image: busybox, command: ['sleep', '600'] }] });
    s.setActiveDeadline(5000);
    assert.equal(at(s, 4000).phase, 'Running');
    assert.equal(s.nextEventAt(), 5000);
    const st = at(s, 5000) as Status & { reason?: string; message?: string };
    assert.equal(st.phase, 'Failed');
    assert.equal(st.reason, 'DeadlineExceeded');
    assert.equal(st.message, 'Pod was active on the node longer than the specified deadline');
    assert.equal(st.containerStatuses[0]!.state.terminated?.exitCode, 137);
    assert.equal(s.nextEventAt(), undefined);
  });

  test("agnhost entrypoint-tester prints its argv; id prints the pod's user and group", () => {
    // Upstream: "Containers should be able to override the image's default command and arguments",
    // "Security Context should support pod.Spec.SecurityContext.RunAsUser And ...RunAsGroup".
    const log = (spec: JsonObject): string | undefined => {
      const s = sim({ restartPolicy: 'Never', ...spec });
      s.advance(0);
      return s
        .output('c', false, 0)
        ?.chunks.map((c) => c.text)
        .join('');
    };
    const tester = (extra: JsonObject): JsonObject => ({
      containers: [
        { name: 'c', image: agnhost, args: ['entrypoint-tester', 'override', 'arguments'], ...extra },
      ],
    });
    assert.equal(log(tester({})), '[/agnhost entrypoint-tester override arguments]\n');
    assert.equal(
      log(tester({ command: ['/agnhost-2'] })),
      '[/agnhost-2 entrypoint-tester override arguments]\n',
    );
    const id = (sc: JsonObject, csc: JsonObject = {}): string | undefined =>
      log({
        securityContext: sc,
        containers: [{ name: 'c', image: busybox, command: ['sh', '-c', 'id'], securityContext: csc }],
      });
    assert.equal(id({ runAsUser: 1001, runAsGroup: 2002 }), 'uid=1001 gid=2002 groups=2002\n');
    assert.equal(
      id({ runAsUser: 1001, runAsGroup: 2002 }, { runAsUser: 1002, runAsGroup: 2003 }),
      'uid=1002 gid=2003 groups=2003\n',
    );
    assert.equal(id({ runAsUser: 1001, fsGroup: 3000 }), 'uid=1001 gid=0(root) groups=0(root),3000\n');
    // Root's groups come from the image: not followed.
    assert.equal(id({}), undefined);
  });

  test('the kubelet-managed /etc/hosts: localhost, the pod address and name, hostAliases', () => {
    // Upstream: "Kubelet when scheduling an agnhost Pod with hostAliases should write entries to /etc/hosts".
    const s = new PodSim({
      pod: pod({
        restartPolicy: 'Never',
        hostname: 'web',
        subdomain: 'sub',
        hostAliases: [{ ip: '123.45.67.89', hostnames: ['foo', 'bar'] }],
        containers: [{ name: 'c', image: agnhost, args: ['etc-hosts'] }],
      }),
      nodeFiles: new Map(),
      startAt: 0,
      defaultRunMs: 5000,
      envContext: { podIPs: ['10.244.0.5'] },
    });
    s.advance(0);
    const text = s
      .output('c', false, 0)
      ?.chunks.map((c) => c.text)
      .join('');
    assert.equal(
      text,
      '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' +
        'fe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n' +
        '10.244.0.5\tweb.sub.ns.svc.cluster.local\tweb\n\n# Entries added by HostAliases.\n123.45.67.89\tfoo\tbar\n\n',
    );
  });

  test('a subPathExpr that expands to an absolute path or .. keeps the container in CreateContainerConfigError', () => {
    // Upstream: "Variable Expansion should fail substituting values in a volume subpath with
    // absolute path" and "... with backticks".
    const failing = (value: string): Status =>
      at(
        sim({
          restartPolicy: 'Never',
          volumes: [{ name: 'workdir1', emptyDir: {} }],
          containers: [
            {
              name: 'dapi-container',
              image: busybox,
              command: ['sh', '-c', 'sleep 1'],
              env: [{ name: 'POD_NAME', value }],
              volumeMounts: [{ name: 'workdir1', mountPath: '/logscontainer', subPathExpr: '$(POD_NAME)' }],
            },
          ],
        }),
        10_000,
      );
    const abs = failing('/tmp');
    assert.equal(abs.phase, 'Pending');
    assert.deepEqual(abs.containerStatuses[0]!.state.waiting, {
      reason: 'CreateContainerConfigError',
      message: 'error SubPath `/tmp` must not be an absolute path',
    });
    assert.equal(
      failing('..').containerStatuses[0]!.state.waiting?.message,
      "unable to provision SubPath `..`: must not contain '..'",
    );
    assert.equal(failing('').containerStatuses[0]!.state.waiting?.message, 'missing value for POD_NAME');
    assert.equal(failing('logs').phase, 'Succeeded');
  });

  test("sysctl prints the pod's namespaced sysctls; one the pod does not set is left unknown", () => {
    // Upstream: "Sysctls should support sysctls".
    const withSysctl = (command: string[]): PodSim =>
      sim({
        restartPolicy: 'Never',
        securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] },
        containers: [{ name: 'test-container', image: busybox, command }],
      });
    const s = withSysctl(['/bin/sysctl', 'kernel.shm_rmid_forced']);
    assert.equal(at(s, 1000).phase, 'Succeeded');
    assert.equal(
      s
        .output('test-container', false, 1000)
        ?.chunks.map((c) => c.text)
        .join(''),
      'kernel.shm_rmid_forced = 1\n',
    );
    const slash = withSysctl(['sh', '-c', 'sysctl -n kernel/shm_rmid_forced']);
    at(slash, 1000);
    assert.equal(
      slash
        .output('test-container', false, 1000)
        ?.chunks.map((c) => c.text)
        .join(''),
      '1\n',
    );
    const other = withSysctl(['/bin/sysctl', 'kernel.msgmax']);
    at(other, 1000);
    assert.equal(other.output('test-container', false, 1000), undefined);
  });

  test('a subPathExpr that failed for a missing annotation expands once the annotation is set', () => {
    // Upstream: "Variable Expansion should verify that a failing subpath expansion can be
    // modified during the lifecycle of a container".
    const spec = subpathAnnotationPodSpec;
    const s = sim(spec);
    const before = at(s, 5000);
    assert.equal(before.phase, 'Pending');
    assert.equal(before.containerStatuses[0]!.state.waiting?.reason, 'CreateContainerConfigError');
    const annotated = pod(spec);
    (annotated['metadata'] as JsonObject)['annotations'] = { mysubpath: 'mypath' };
    s.retryConfigErrors(annotated, 6000);
    s.advance(6000);
    const after = s.status(rt, 6000) as unknown as Status;
    assert.equal(after.phase, 'Running');
    assert.ok(after.containerStatuses[0]!.state.running !== undefined);
  });

  test("a container restarted after the pod's labels changed sees the new ones (the kubelet builds it from the current pod)", () => {
    const spec: JsonObject = {
      restartPolicy: 'Always',
      containers: [
        {
          name: 'c',
          image: busybox,
          command: ['sh', '-c', 'echo $L; exit 1'],
          env: [{ name: 'L', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }],
        },
      ],
    };
    const first = pod(spec);
    (first['metadata'] as JsonObject)['labels'] = { app: 'a' };
    const s = new PodSim({ pod: first, nodeFiles: new Map(), startAt: 0, defaultRunMs: 5000 });
    s.advance(0);
    assert.deepEqual(
      s.output('c', false, 0)?.chunks.map((c) => c.text),
      ['a\n'],
    );
    const relabelled = pod(spec);
    (relabelled['metadata'] as JsonObject)['labels'] = { app: 'b' };
    s.observe(relabelled);
    // Restarted at once (before the change), then after 10 s: the container started since the
    // change prints the label as it is now.
    const st = at(s, 12_000);
    assert.equal(st.containerStatuses[0]!.restartCount, 2);
    assert.deepEqual(
      s.output('c', true, 12_000)?.chunks.map((c) => c.text),
      ['a\n'],
    );
    assert.deepEqual(
      s.output('c', false, 12_000)?.chunks.map((c) => c.text),
      ['b\n'],
    );
  });

  test('agnhost logs-generator prints its lines evenly over the run, in klog format, then exits 0', () => {
    // Upstream: "Kubectl logs logs should be able to retrieve and filter logs".
    const s = sim({
      restartPolicy: 'Never',
      containers: [
        {
          name: 'c',
          image: agnhost,
          args: ['logs-generator', '--log-lines-total', '100', '--run-duration', '20s'],
        },
      ],
    });
    assert.equal(at(s, 10_000).phase, 'Running');
    const half = s.output('c', false, 10_000)!.chunks.filter((c) => c.at <= 10_000);
    assert.equal(half.length, 51, 'one line every 200 ms');
    assert.match(
      half[0]!.text,
      /^I\d{4} \d\d:\d\d:\d\d\.\d{6} {7}1 logs_generator\.go:76\] 0 (GET|POST|PUT) \/api\/v1\/namespaces\/(kube-system|default|ns)\/pods\/[a-z0-9]{3,4} \d{3}\n$/,
    );
    assert.equal(at(s, 21_000).phase, 'Succeeded');
    const all = s
      .output('c', false, 21_000)!
      .chunks.map((c) => c.text)
      .join('');
    assert.equal(all.split('\n').length - 1, 100);
    assert.ok(all.includes('/api/v1/namespaces/kube-system/'));
  });

  test('nonewprivs prints its effective uid: root unless allowPrivilegeEscalation is false', () => {
    const nnp = (sc: JsonObject): string[] | undefined => {
      const s = sim({
        restartPolicy: 'Never',
        containers: [
          { name: 'c', image: 'registry.k8s.io/e2e-test-images/nonewprivs:1.3', securityContext: sc },
        ],
      });
      assert.equal(at(s, 1000).containerStatuses[0]?.state.terminated?.exitCode, 0);
      return s.output('c', false, 1000)?.chunks.map((c) => c.text);
    };
    assert.deepEqual(nnp({ allowPrivilegeEscalation: false, runAsUser: 1000 }), ['Effective uid: 1000\n']);
    assert.deepEqual(nnp({ runAsUser: 1000 }), ['Effective uid: 0\n']);
    assert.deepEqual(nnp({ allowPrivilegeEscalation: true, runAsUser: 1000 }), ['Effective uid: 0\n']);
  });

  test("busybox ip link add is refused without CAP_NET_ADMIN; with it the kernel's links are not known", () => {
    const ip = (sc: JsonObject): string[] | undefined => {
      const s = sim({
        restartPolicy: 'Never',
        containers: [
          {
            name: 'c',
            image: busybox,
            command: ['sh', '-c', 'ip link add dummy0 type dummy || true'],
            securityContext: sc,
          },
        ],
      });
      at(s, 1000);
      return s.output('c', false, 1000)?.chunks.map((c) => c.text);
    };
    assert.deepEqual(ip({ privileged: false }), ['ip: RTNETLINK answers: Operation not permitted\n']);
    assert.deepEqual(ip({ capabilities: { add: ['NET_ADMIN'] }, runAsUser: 1000 }), [
      'ip: RTNETLINK answers: Operation not permitted\n',
    ]);
    assert.equal(ip({ privileged: true }), undefined);
    assert.equal(ip({ capabilities: { add: ['NET_ADMIN'] } }), undefined);
  });
});
