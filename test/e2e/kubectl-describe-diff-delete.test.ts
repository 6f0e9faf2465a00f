/** kubectl 1.27 against `nanokube serve`: describe, diff and delete. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webAppYaml } from './support/manifests.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-apply';

describe('kubectl describe/diff/delete against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();
  let appFile = '';

  it('setup: namespace, app and a second configmap', async () => {
    await s.ok(['create', 'namespace', ns]);
    await s.namespaceReady(ns);
    appFile = s.kubectl.file('app.yaml', webAppYaml(ns, { greeting: 'hi' }));
    await s.ok(['apply', '-f', appFile]);
    await s.ok(['create', 'configmap', 'other', '-n', ns, '--from-literal=x=1']);
  });

  it('describe deployment (rolled out onto the simulated node)', async () => {
    await s.ok(['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=60s']);
    const out = await s.ok(['describe', 'deployment', 'web', '-n', ns]);
    assert.match(out, /^Name:\s+web$/m);
    assert.match(out, new RegExp(`^Namespace:\\s+${ns}$`, 'm'));
    assert.match(out, /^CreationTimestamp:\s+\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+0000$/m);
    assert.match(out, /^Labels:\s+app=web$/m);
    assert.match(out, /^Selector:\s+app=web$/m);
    assert.match(out, /^Replicas:\s+1 desired \| 1 updated \| 1 total \| 1 available \| 0 unavailable$/m);
    assert.match(out, /^ {2}Available\s+True\s+MinimumReplicasAvailable$/m);
    assert.match(out, /^ {2}Progressing\s+True\s+NewReplicaSetAvailable$/m);
    assert.match(out, /^NewReplicaSet:\s+web-[a-z0-9]+ \(1\/1 replicas created\)$/m);
    assert.match(out, /^StrategyType:\s+RollingUpdate$/m);
    assert.match(out, /^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m);
    assert.match(out, /^ {3}nginx:\n {4}Image:\s+nginx:1\.25\n {4}Port:\s+80\/TCP$/m);
    // The deployment controller's core/v1 event, as kube-controller-manager records it.
    assert.match(
      out,
      /^ {2}Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-[a-z0-9]+ to 1$/m,
    );
  });

  it('describe configmap', async () => {
    const out = await s.ok(['describe', 'configmap', 'web-config', '-n', ns]);
    assert.match(out, /^Name:\s+web-config$/m);
    assert.match(out, /^Labels:\s+app=web$/m);
    assert.match(out, /^Annotations:\s+<none>$/m);
    assert.match(out, /\nData\n====\ngreeting:\n----\nhi\n/);
  });

  it('diff: exit 0 and no output when the file matches', async () => {
    const r = await s.run(['diff', '-f', appFile]);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '');
    assert.equal(r.code, 0);
  });

  it('diff: exit 1 with a unified diff when different, nothing persisted', async () => {
    s.kubectl.file('app.yaml', webAppYaml(ns, { greeting: 'bye', replicas: 2 }));
    const r = await s.run(['diff', '-f', appFile]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^diff -u -N \S+\/LIVE-\d+\/apps\.v1\.Deployment\.e2e-apply\.web \S+\/MERGED-\d+\/apps/m,
    );
    assert.match(r.stdout, /^- {2}greeting: hi$/m);
    assert.match(r.stdout, /^\+ {2}greeting: bye$/m);
    assert.match(r.stdout, /^- {2}replicas: 1$/m);
    assert.match(r.stdout, /^\+ {2}replicas: 2$/m);
    assert.match(r.stdout, /^- {2}generation: 1$/m);
    assert.match(r.stdout, /^\+ {2}generation: 2$/m);
    assert.doesNotMatch(r.stdout, /Secret/);
    assert.equal(await s.ok(['get', 'cm', 'web-config', '-n', ns, '-o', 'jsonpath={.data.greeting}']), 'hi');
    assert.equal(await s.ok(['get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}']), '1');
  });

  it('delete cm x (waits by default) and delete --wait=false', async () => {
    assert.equal(await s.ok(['delete', 'cm', 'other', '-n', ns]), 'configmap "other" deleted\n');
    await s.ok(['create', 'configmap', 'other2', '-n', ns, '--from-literal=x=1']);
    assert.equal(
      await s.ok(['delete', 'cm', 'other2', '-n', ns, '--wait=false']),
      'configmap "other2" deleted\n',
    );
    const r = await s.run(['get', 'cm', 'other', '-n', ns]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (NotFound): configmaps "other" not found\n');
  });

  it('delete -f file removes every object of the file', async () => {
    assert.equal(
      await s.ok(['delete', '-f', appFile]),
      'deployment.apps "web" deleted\nservice "web" deleted\nconfigmap "web-config" deleted\nsecret "web-secret" deleted\n',
    );
    const r = await s.run(['get', 'deploy,svc,secret', '-n', ns]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `No resources found in ${ns} namespace.\n`);
    // Only the controller-published CA bundle is left among the config maps.
    assert.equal(await s.ok(['get', 'cm', '-n', ns, '-o', 'name']), 'configmap/kube-root-ca.crt\n');
  });

  it('delete deploy --all', async () => {
    await s.ok(['apply', '-f', appFile]);
    await s.ok(['create', 'deployment', 'second', '-n', ns, '--image=nginx']);
    assert.equal(
      await s.ok(['delete', 'deploy', '--all', '-n', ns]),
      'deployment.apps "second" deleted\ndeployment.apps "web" deleted\n',
    );
    assert.equal(
      await s.ok(['get', 'svc,cm', '-n', ns, '-o', 'name']),
      'service/web\nconfigmap/kube-root-ca.crt\nconfigmap/web-config\n',
    );
  });

  itStopsCleanly(s);
});
