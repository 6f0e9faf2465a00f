/**
 * kubectl 1.32 and newer send protobuf bodies (`application/vnd.kubernetes.protobuf`) for
 * `kubectl create …` and read protobuf answers: before nanokube spoke protobuf every such
 * command failed with 415. Runs the newest `kubectl.1.3x` found (kubectl.1.33 on these machines).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findNewerKubectl } from '../support/kubectl.js';
import { repoRoot } from './support/nanokube-process.js';
import { itStopsCleanly, kubectlSession } from './support/session.js';

const bin = findNewerKubectl();
const skip = bin === undefined ? 'no kubectl 1.32 or newer found (set KUBECTL_NEWER)' : false;

describe('kubectl 1.32+ over protobuf', { skip }, () => {
  const k = kubectlSession({}, bin);

  it('create namespace|configmap|secret|deployment|service|job|cronjob succeed', async () => {
    assert.match(await k.ok(['create', 'namespace', 'pb']), /^namespace\/pb created/);
    assert.match(
      await k.ok(['-n', 'pb', 'create', 'configmap', 'cfg', '--from-literal=a=1', '--from-literal=b=ü']),
      /configmap\/cfg created/,
    );
    assert.match(
      await k.ok(['-n', 'pb', 'create', 'secret', 'generic', 'sec', '--from-literal=p=s3cr3t']),
      /secret\/sec created/,
    );
    assert.match(
      await k.ok([
        '-n',
        'pb',
        'create',
        'deployment',
        'web',
        '--image=nginx:1.25',
        '--replicas=2',
        '--port=80',
      ]),
      /deployment.apps\/web created/,
    );
    assert.match(
      await k.ok(['-n', 'pb', 'create', 'service', 'clusterip', 'svc', '--tcp=80:8080']),
      /service\/svc created/,
    );
    assert.match(
      await k.ok(['-n', 'pb', 'create', 'job', 'once', '--image=busybox', '--', 'echo', 'hi']),
      /job.batch\/once created/,
    );
    assert.match(
      await k.ok(['-n', 'pb', 'create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *']),
      /cronjob.batch\/tick created/,
    );
  });

  it('what was created over protobuf reads back intact (JSON view)', async () => {
    const cm = JSON.parse(await k.ok(['-n', 'pb', 'get', 'configmap', 'cfg', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    assert.deepEqual(cm.data, { a: '1', b: 'ü' });
    const sec = JSON.parse(await k.ok(['-n', 'pb', 'get', 'secret', 'sec', '-o', 'json'])) as {
      data: Record<string, string>;
    };
    assert.equal(Buffer.from(sec.data['p']!, 'base64').toString(), 's3cr3t');
    const dep = JSON.parse(await k.ok(['-n', 'pb', 'get', 'deployment', 'web', '-o', 'json'])) as {
      spec: {
        replicas: number;
        template: { spec: { containers: { ports: { containerPort: number }[] }[] } };
      };
    };
    assert.equal(dep.spec.replicas, 2);
    assert.equal(dep.spec.template.spec.containers[0]!.ports[0]!.containerPort, 80);
    const svc = JSON.parse(await k.ok(['-n', 'pb', 'get', 'service', 'svc', '-o', 'json'])) as {
      spec: { ports: { port: number; targetPort: number }[] };
    };
    assert.deepEqual(
      svc.spec.ports.map((p) => [p.port, p.targetPort]),
      [[80, 8080]],
    );
  });

  it('auth whoami (SelfSubjectReview) answers', async () => {
    const out = await k.ok(['auth', 'whoami']);
    assert.match(out, /Username\s+kubernetes-admin/);
    assert.match(out, /system:masters/);
  });

  it('create -f of every catalogue fixture succeeds', async () => {
    const out = await k.ok(['-n', 'default', 'create', '-f', `${repoRoot}/test/fixtures/catalogue/`]);
    assert.ok(out.split('\n').filter((l) => l.endsWith(' created')).length >= 40, out);
  });

  it('scale, label and delete work on protobuf-created objects', async () => {
    assert.match(await k.ok(['-n', 'pb', 'scale', 'deployment', 'web', '--replicas=3']), /scaled/);
    assert.match(await k.ok(['-n', 'pb', 'label', 'configmap', 'cfg', 'x=y']), /labeled/);
    assert.match(await k.ok(['-n', 'pb', 'delete', 'configmap', 'cfg']), /deleted/);
    const r = await k.run(['-n', 'pb', 'get', 'configmap', 'cfg']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /configmaps "cfg" not found/);
  });

  itStopsCleanly(k);
});
