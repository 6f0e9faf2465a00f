/**
 * Simulated nodes run a pod's life from its spec (the containers' commands, probes and restart
 * policy), on a manual clock so minutes of pod life take a moment: the classes of upstream
 * conformance specs that a fixed script could not pass. Each test names the upstream spec it
 * guards.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, describe, test } from 'node:test';
import { startCluster } from '../../src/index.js';
import type { Cluster } from '../../src/index.js';
import type { JsonObject } from '../../src/util/json.js';
import { waitFor } from '../support/poll.js';
import {
  restartCountPodSpec,
  subpathAnnotationPodSpec,
} from '../../src/nodes/containers/testing/upstream-pods.js';

const busybox = 'registry.k8s.io/e2e-test-images/busybox:1.29-4';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';
const ns = 'default';

type Pod = {
  status?: {
    phase?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: { restartCount: number; ready: boolean; state?: Record<string, unknown> }[];
  };
};

describe('simulated pods follow their spec', () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster({ clock: 'manual' });
  });
  after(() => c.stop());

  const createPod = async (name: string, spec: JsonObject): Promise<void> => {
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec },
    });
  };
  const getPod = async (name: string): Promise<Pod> =>
    await c.rest.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
  const ready = (p: Pod): boolean => p.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True';
  // Scheduling and the first status write may wait on the cluster's clock (back-offs, batching):
  // the waits move it a second at a time.
  const running = (name: string): Promise<Pod> =>
    waitFor(`${name} Running`, async () => {
      const p = await getPod(name);
      if (p.status?.phase === 'Running') return p;
      await c.clock.advance('1s');
      return undefined;
    });

  /** pods/log is text: read over HTTPS with the kubeconfig's admin certificate. */
  const podLog = (name: string): Promise<string> => {
    const user = c.kubeconfigObject.users[0]!.user;
    return new Promise<string>((resolve, reject) => {
      const req = https.get(
        `${c.url}/api/v1/namespaces/${ns}/pods/${name}/log`,
        {
          ca: c.caCert,
          cert: Buffer.from(user['client-certificate-data']!, 'base64'),
          key: Buffer.from(user['client-key-data']!, 'base64'),
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve(body));
        },
      );
      req.on('error', reject);
    });
  };

  test('a readiness probe that always fails keeps the pod unready, without restarts', async () => {
    // Upstream: "Probing container with readiness probe that fails should never be ready and never restart".
    await createPod('never-ready', {
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
    await running('never-ready');
    await c.clock.advance('2m');
    const p = await getPod('never-ready');
    assert.equal(p.status?.phase, 'Running');
    assert.equal(ready(p), false);
    assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0);
  });

  test('an exec liveness probe restarts the container once its file is gone', async () => {
    // Upstream: 'Probing container should be restarted with a exec "cat /tmp/health" liveness probe'.
    await createPod('liveness-exec', {
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
    await running('liveness-exec');
    await c.clock.advance('12s');
    assert.equal((await getPod('liveness-exec')).status?.containerStatuses?.[0]?.restartCount, 0);
    await c.clock.advance('10s');
    const p = await waitFor('a restart', async () => {
      const x = await getPod('liveness-exec');
      return x.status?.containerStatuses?.[0]?.restartCount === 1 ? x : undefined;
    });
    assert.ok(p.status?.containerStatuses?.[0]?.state?.['running']);
  });

  test("the runtime spec's script: restart counts and phases per restartPolicy", async () => {
    // Upstream: "Container Runtime blackbox test when starting a container that exits should run with the expected status".
    const expected = { Always: ['Running', 2], OnFailure: ['Succeeded', 1], Never: ['Failed', 0] } as const;
    for (const policy of Object.keys(expected) as (keyof typeof expected)[]) {
      await createPod(`rc-${policy.toLowerCase()}`, restartCountPodSpec(policy));
    }
    await waitFor('the pods to start', async () => {
      for (const policy of Object.keys(expected)) {
        if ((await getPod(`rc-${policy.toLowerCase()}`)).status?.phase === undefined) {
          await c.clock.advance('1s');
          return undefined;
        }
      }
      return true;
    });
    await c.clock.advance('30s');
    for (const [policy, [phase, restarts]] of Object.entries(expected)) {
      await waitFor(`rc-${policy} ${phase} with ${restarts} restarts`, async () => {
        const p = await getPod(`rc-${policy.toLowerCase()}`);
        return p.status?.phase === phase && p.status.containerStatuses?.[0]?.restartCount === restarts
          ? p
          : undefined;
      });
    }
  });

  test('a Job whose pod sleeps stays active until the sleep ends', async () => {
    // What CronJob "should replace jobs when ReplaceConcurrent" and "should schedule multiple jobs
    // concurrently" need: a job that is active long enough.
    await c.client.batch.v1.jobs.create(
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'sleeper' },
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'c', image: busybox, command: ['sleep', '300'] }],
            },
          },
        },
      },
      { namespace: ns },
    );
    await waitFor('the job active', async () => {
      const j = await c.client.batch.v1.jobs.get('sleeper', { namespace: ns });
      if ((j.status?.active ?? 0) === 1 && (j.status?.ready ?? 0) === 1) return j;
      await c.clock.advance('1s');
      return undefined;
    });
    await c.clock.advance('4m');
    const mid = await c.client.batch.v1.jobs.get('sleeper', { namespace: ns });
    assert.equal(mid.status?.active, 1);
    assert.equal(mid.status?.succeeded ?? 0, 0);
    await c.clock.advance('61s');
    await waitFor('the job complete', async () => {
      const j = await c.client.batch.v1.jobs.get('sleeper', { namespace: ns });
      if (j.status?.succeeded === 1) return j;
      await c.clock.advance('1s');
      return undefined;
    });
  });

  test("a followed program's output is the pod's log, with the kubelet's environment", async () => {
    // Upstream: "Variable Expansion should allow composing env vars into new env vars", "Downward
    // API should provide pod name, namespace and IP address as env vars", "Pods should contain
    // environment variables for services", "Kubelet ... should print the output to logs".
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/services`, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'fooservice' },
        spec: { selector: { name: 'x' }, ports: [{ port: 8765, targetPort: 8080 }] },
      },
    });
    const svc = (await c.rest.request('GET', `/api/v1/namespaces/${ns}/services/fooservice`)) as {
      spec: { clusterIP: string };
    };
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'data-1': 'value-1' } },
    });
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'sec' },
        data: { 'data-1': Buffer.from('secret-1').toString('base64') },
      },
    });
    await createPod('printer', {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'c',
          image: busybox,
          command: ['sh', '-c', "echo 'Hello World'; env"],
          env: [
            { name: 'FOO', value: 'foo-value' },
            { name: 'FOOBAR', value: '$(FOO);;bar' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
            { name: 'CONFIG_DATA_1', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'data-1' } } },
            { name: 'SECRET_DATA', valueFrom: { secretKeyRef: { name: 'sec', key: 'data-1' } } },
            {
              name: 'OPTIONAL',
              valueFrom: { configMapKeyRef: { name: 'absent', key: 'k', optional: true } },
            },
          ],
          envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'p_' }],
        },
      ],
    });
    await waitFor('printer Succeeded', async () => {
      if ((await getPod('printer')).status?.phase === 'Succeeded') return true;
      await c.clock.advance('1s');
      return undefined;
    });
    const text = await podLog('printer');
    assert.match(text, /^Hello World\n/);
    for (const line of [
      'FOO=foo-value',
      'FOOBAR=foo-value;;bar',
      'POD_NAME=printer',
      // No limit set: the node's allocatable (32 cores).
      'CPU_LIMIT=32',
      `FOOSERVICE_SERVICE_HOST=${svc.spec.clusterIP}`,
      'FOOSERVICE_SERVICE_PORT=8765',
      `FOOSERVICE_PORT=tcp://${svc.spec.clusterIP}:8765`,
      'FOOSERVICE_PORT_8765_TCP_PROTO=tcp',
      'KUBERNETES_SERVICE_PORT=443',
      'CONFIG_DATA_1=value-1',
      'SECRET_DATA=secret-1',
      'p_data-1=value-1',
    ])
      assert.ok(text.split('\n').includes(line), `${line} in\n${text}`);
    assert.ok(!text.includes('OPTIONAL='), text);
  });

  test('mounttest reads what the kubelet writes into API volumes, and follows their updates', async () => {
    // Upstream: "ConfigMap should be consumable from pods in volume with mappings", "ConfigMap
    // updates should be reflected in volume", "ServiceAccounts should mount projected service
    // account token".
    await c.rest.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'vol' }, data: { 'data-1': 'value-1' } },
    });
    await createPod('mounttest', {
      restartPolicy: 'Never',
      volumes: [
        {
          name: 'cm',
          configMap: { name: 'vol', items: [{ key: 'data-1', path: 'path/to/data-1', mode: 0o400 }] },
        },
        { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
      ],
      containers: [
        {
          name: 'c',
          image: agnhost,
          args: [
            'mounttest',
            '--file_mode=/etc/cm/path/to/data-1',
            '--file_content=/token/token',
            '--break_on_expected_content=false',
            '--retry_time=120',
            '--file_content_in_loop=/etc/cm/path/to/data-1',
          ],
          volumeMounts: [
            { name: 'cm', mountPath: '/etc/cm', readOnly: true },
            { name: 'token', mountPath: '/token' },
          ],
        },
      ],
    });
    await running('mounttest');
    await c.clock.advance('3s');
    const first = await podLog('mounttest');
    assert.match(first, /^mode of file "\/etc\/cm\/path\/to\/data-1": -r--------\n/);
    // The token is a JWT the API server issued for the pod's service account.
    const jwt =
      /content of file "\/token\/token": ([A-Za-z0-9-_=]+\.[A-Za-z0-9-_=]+\.[A-Za-z0-9-_.+/=]*)\n/.exec(
        first,
      );
    assert.ok(jwt, first);
    const review = (await c.rest.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: jwt[1] } },
    })) as { status: { authenticated?: boolean; user?: { username?: string } } };
    assert.equal(review.status.authenticated, true);
    assert.equal(review.status.user?.username, `system:serviceaccount:${ns}:default`);
    assert.match(first, /content of file "\/etc\/cm\/path\/to\/data-1": value-1\n/);
    await c.rest.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/vol`, {
      body: { data: { 'data-1': 'value-2' } },
      contentType: 'application/merge-patch+json',
    });
    const updated = await waitFor('the update in the log', async () => {
      const log = await podLog('mounttest');
      if (log.includes('data-1": value-2')) return log;
      await c.clock.advance('1s');
      return undefined;
    });
    assert.match(updated, /value-1\n[^]*value-2\n/);
  });

  test("the kubelet's container events: Pulled, Created, Started, then Killing on deletion", async () => {
    // Upstream: "Sysctls should support sysctls" waits for the Started event (or an error event).
    await createPod('events', {
      containers: [{ name: 'main', image: busybox, command: ['sleep', '3600'] }],
    });
    type Event = {
      reason: string;
      message: string;
      type: string;
      source?: { component?: string; host?: string };
      involvedObject: { kind: string; name: string; fieldPath?: string };
    };
    const events = async (): Promise<Event[]> =>
      (
        (await c.rest.request(
          'GET',
          `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name%3Devents`,
        )) as { items: Event[] }
      ).items.filter((e) => e.source?.component === 'kubelet');
    const started = await waitFor('the Started event', async () => {
      const list = await events();
      if (list.some((e) => e.reason === 'Started')) return list;
      await c.clock.advance('1s');
      return undefined;
    });
    assert.deepEqual(
      started.map((e) => [e.reason, e.message, e.involvedObject.fieldPath]),
      [
        ['Pulled', `Container image "${busybox}" already present on machine`, 'spec.containers{main}'],
        ['Created', 'Created container main', 'spec.containers{main}'],
        ['Started', 'Started container main', 'spec.containers{main}'],
      ],
    );
    assert.match(started[0]!.source?.host ?? '', /^nanokube-node-/);
    await c.rest.request('DELETE', `/api/v1/namespaces/${ns}/pods/events`);
    const killing = await waitFor('the Killing event', async () => {
      const list = await events();
      const k = list.find((e) => e.reason === 'Killing');
      if (k !== undefined) return k;
      await c.clock.advance('1s');
      return undefined;
    });
    assert.equal(killing.message, 'Stopping container main');
  });

  test('a container waiting on a subPathExpr starts once the annotation it names is set', async () => {
    // Upstream: "Variable Expansion should verify that a failing subpath expansion can be
    // modified during the lifecycle of a container".
    await createPod('subpath-later', subpathAnnotationPodSpec);
    const waiting = await waitFor('CreateContainerConfigError', async () => {
      const p = await getPod('subpath-later');
      const w = p.status?.containerStatuses?.[0]?.state?.['waiting'] as { reason?: string } | undefined;
      if (w?.reason === 'CreateContainerConfigError') return p;
      await c.clock.advance('1s');
      return undefined;
    });
    assert.equal(waiting.status?.phase, 'Pending');
    await c.rest.request('PATCH', `/api/v1/namespaces/${ns}/pods/subpath-later`, {
      body: { metadata: { annotations: { mysubpath: 'mypath' } } },
      contentType: 'application/merge-patch+json',
    });
    await running('subpath-later');
  });
});
