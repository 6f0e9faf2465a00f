/** kubectl 1.27 against `nanokube serve`: create namespace, apply, get (all output formats). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { columns, lines } from './support/kubectl-runner.js';
import { configMapYaml, webAppYaml } from './support/manifests.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-apply';
const age = /^\d+s$/;

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

describe('kubectl apply/get against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();
  let appFile = '';

  it('create namespace', async () => {
    assert.equal(await s.ok(['create', 'namespace', ns]), `namespace/${ns} created\n`);
    await s.namespaceReady(ns);
  });

  it('apply -f of a multi-document YAML creates all four objects', async () => {
    appFile = s.kubectl.file('app.yaml', webAppYaml(ns));
    assert.equal(
      await s.ok(['apply', '-f', appFile]),
      'deployment.apps/web created\nservice/web created\nconfigmap/web-config created\nsecret/web-secret created\n',
    );
  });

  it('re-apply of the same file: unchanged', async () => {
    assert.equal(
      await s.ok(['apply', '-f', appFile]),
      'deployment.apps/web unchanged\nservice/web unchanged\nconfigmap/web-config unchanged\nsecret/web-secret unchanged\n',
    );
  });

  it('apply of a changed file: configured only for the changed object', async () => {
    s.kubectl.file('app.yaml', webAppYaml(ns, { greeting: 'hi' }));
    assert.equal(
      await s.ok(['apply', '-f', appFile]),
      'deployment.apps/web unchanged\nservice/web unchanged\nconfigmap/web-config configured\nsecret/web-secret unchanged\n',
    );
    assert.equal(await s.ok(['get', 'cm', 'web-config', '-n', ns, '-o', 'jsonpath={.data.greeting}']), 'hi');
    await s.ok(['create', 'configmap', 'other', '-n', ns, '--from-literal=x=1']);
  });

  it('#9 get -o yaml --show-managed-fields: writes are recorded in managedFields', async () => {
    const cm = parseYaml(
      await s.ok(['get', 'cm', 'web-config', '-n', ns, '-o', 'yaml', '--show-managed-fields']),
    ) as Obj;
    const managers =
      (cm.metadata['managedFields'] as { manager: string; operation: string }[] | undefined) ?? [];
    assert.deepEqual(
      managers.map((m) => `${m.manager}/${m.operation}`),
      ['kubectl-client-side-apply/Update'],
    );
  });

  it('#9 apply --server-side', async () => {
    const file = s.kubectl.file('ssa.yaml', configMapYaml(ns, 'ssa', { k: 'v' }));
    assert.equal(await s.ok(['apply', '--server-side', '-f', file]), 'configmap/ssa serverside-applied\n');
    const r = await s.run(['diff', '--server-side', '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    await s.ok(['delete', 'cm', 'ssa', '-n', ns]);
  });

  it('get deploy: default table columns (after the rollout onto the simulated node)', async () => {
    await s.ok(['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s']);
    const [header, row, ...rest] = lines(await s.ok(['get', 'deploy', '-n', ns]));
    assert.deepEqual(columns(header!), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    const [name, ready, upToDate, available, a] = columns(row!);
    assert.deepEqual([name, ready, upToDate, available], ['web', '1/1', '1', '1']);
    assert.match(a!, age);
    assert.equal(rest.length, 0);
  });

  it('get deploy -o wide: adds CONTAINERS, IMAGES, SELECTOR', async () => {
    const [header, row] = lines(await s.ok(['get', 'deploy', 'web', '-n', ns, '-o', 'wide']));
    assert.deepEqual(columns(header!), [
      'NAME',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ]);
    assert.deepEqual(columns(row!).slice(5), ['nginx', 'nginx:1.25', 'app=web']);
  });

  it('get cm / secret: default tables', async () => {
    const cm = lines(await s.ok(['get', 'cm', '-n', ns]));
    assert.deepEqual(columns(cm[0]!), ['NAME', 'DATA', 'AGE']);
    assert.deepEqual(
      cm.slice(1).map((r) => columns(r).slice(0, 2)),
      [
        ['kube-root-ca.crt', '1'],
        ['other', '1'],
        ['web-config', '1'],
      ],
    );
    const secret = lines(await s.ok(['get', 'secret', 'web-secret', '-n', ns]));
    assert.deepEqual(columns(secret[0]!), ['NAME', 'TYPE', 'DATA', 'AGE']);
    assert.deepEqual(columns(secret[1]!).slice(0, 3), ['web-secret', 'Opaque', '1']);
  });

  it('get svc: ClusterIP service with an allocated cluster IP', async () => {
    const [header, row] = lines(await s.ok(['get', 'svc', 'web', '-n', ns]));
    assert.deepEqual(columns(header!), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    const [name, type, , external, ports] = columns(row!);
    assert.deepEqual([name, type, external, ports], ['web', 'ClusterIP', '<none>', '80/TCP']);
  });

  // NW-03: allocated from --service-cluster-ip-range (default 10.96.0.0/12).
  it('get svc: CLUSTER-IP is an address from the service range', async () => {
    const [, row] = lines(await s.ok(['get', 'svc', 'web', '-n', ns]));
    const ip = columns(row!)[2]!;
    assert.match(ip, /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    const svc = JSON.parse(await s.ok(['get', 'svc', 'web', '-n', ns, '-o', 'json'])) as {
      spec: Record<string, unknown>;
    };
    assert.equal(svc.spec['clusterIP'], ip);
    assert.deepEqual(svc.spec['clusterIPs'], [ip]);
    assert.deepEqual(svc.spec['ipFamilies'], ['IPv4']);
    assert.equal(svc.spec['ipFamilyPolicy'], 'SingleStack');
  });

  it('get deploy -o yaml: the stored object with server defaults, managedFields hidden', async () => {
    const d = parseYaml(await s.ok(['get', 'deploy', 'web', '-n', ns, '-o', 'yaml'])) as Obj;
    assert.equal(d.apiVersion, 'apps/v1');
    assert.equal(d.kind, 'Deployment');
    assert.equal(d.metadata.name, 'web');
    assert.equal(d.metadata['namespace'], ns);
    assert.equal(d.metadata['generation'], 1);
    assert.match(String(d.metadata['resourceVersion']), /^\d+$/);
    assert.match(String(d.metadata['uid']), /^[0-9a-f-]{36}$/);
    assert.match(String(d.metadata['creationTimestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(d.metadata['managedFields'], undefined);
    const annotations = d.metadata['annotations'] as Record<string, string>;
    assert.ok('kubectl.kubernetes.io/last-applied-configuration' in annotations);
    assert.equal(d.spec?.['replicas'], 1);
    assert.equal(d.spec?.['revisionHistoryLimit'], 10);
    assert.equal(d.spec?.['progressDeadlineSeconds'], 600);
    assert.deepEqual(d.spec?.['strategy'], {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });
  });

  it('get deploy -o json: pod template defaults', async () => {
    const d = JSON.parse(await s.ok(['get', 'deploy', 'web', '-n', ns, '-o', 'json'])) as {
      spec: { template: { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } } };
    };
    const pod = d.spec.template.spec;
    assert.equal(pod['restartPolicy'], 'Always');
    assert.equal(pod['dnsPolicy'], 'ClusterFirst');
    assert.equal(pod['schedulerName'], 'default-scheduler');
    assert.equal(pod['terminationGracePeriodSeconds'], 30);
    assert.deepEqual(pod['securityContext'], {});
    const c = pod.containers[0]!;
    assert.equal(c['imagePullPolicy'], 'IfNotPresent');
    assert.equal(c['terminationMessagePath'], '/dev/termination-log');
    assert.equal(c['terminationMessagePolicy'], 'File');
    assert.deepEqual(c['ports'], [{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('get svc -o json: service defaults', async () => {
    const svc = JSON.parse(await s.ok(['get', 'svc', 'web', '-n', ns, '-o', 'json'])) as {
      spec: Record<string, unknown>;
    };
    assert.equal(svc.spec['type'], 'ClusterIP');
    assert.equal(svc.spec['sessionAffinity'], 'None');
    assert.deepEqual(svc.spec['ports'], [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  });

  it('get -o jsonpath over a list', async () => {
    assert.equal(
      await s.ok(['get', 'ns', '-o', 'jsonpath={.items[*].metadata.name}']),
      `default ${ns} kube-node-lease kube-public kube-system`,
    );
    assert.equal(
      await s.ok(['get', 'cm', '-n', ns, '-o', 'jsonpath={.items[*].metadata.name}']),
      'kube-root-ca.crt other web-config',
    );
  });

  it('get -l app=web selects by label', async () => {
    assert.equal(
      await s.ok(['get', 'cm', '-n', ns, '-l', 'app=web', '-o', 'name']),
      'configmap/web-config\n',
    );
    // != also matches objects without the label, such as the published kube-root-ca.crt.
    assert.equal(
      await s.ok(['get', 'cm', '-n', ns, '-l', 'app!=web', '-o', 'name']),
      'configmap/kube-root-ca.crt\nconfigmap/other\n',
    );
    assert.equal(
      await s.ok(['get', 'deploy,svc,cm,secret', '-n', ns, '-l', 'app=web', '-o', 'name']),
      'deployment.apps/web\nservice/web\nconfigmap/web-config\n',
    );
  });

  it('get --field-selector metadata.name=other', async () => {
    assert.equal(
      await s.ok(['get', 'cm', '-n', ns, '--field-selector', 'metadata.name=other', '-o', 'name']),
      'configmap/other\n',
    );
    const r = await s.run(['get', 'cm', '-n', ns, '--field-selector', 'metadata.name=nothing']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `No resources found in ${ns} namespace.\n`);
  });

  it('get -A: NAMESPACE column across namespaces', async () => {
    const [header, ...rows] = lines(await s.ok(['get', 'cm', '-A']));
    assert.deepEqual(columns(header!), ['NAMESPACE', 'NAME', 'DATA', 'AGE']);
    const mine = rows.map((r) => columns(r)).filter((c) => c[0] === ns);
    assert.deepEqual(
      mine.map((c) => c.slice(0, 3)),
      [
        [ns, 'kube-root-ca.crt', '1'],
        [ns, 'other', '1'],
        [ns, 'web-config', '1'],
      ],
    );
  });

  itStopsCleanly(s);
});
