/** kubectl 1.27 against `nanokube serve`: version, discovery, raw paths and namespaces. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columns, lines } from './support/kubectl-runner.js';
import { kubectlSession, kubectlSkip } from './support/session.js';

describe('kubectl discovery against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('prints the ready line and writes a kubeconfig', () => {
    assert.match(s.server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(s.server.kubeconfigPath.endsWith('/kubeconfig'));
  });

  it('version: server gitVersion starts with v1.27.', async () => {
    const out = JSON.parse(await s.ok(['version', '-o', 'json'])) as {
      clientVersion: { gitVersion: string };
      serverVersion: { gitVersion: string; major: string; minor: string; gitCommit: string };
    };
    assert.match(out.clientVersion.gitVersion, /^v1\.27\./);
    assert.match(out.serverVersion.gitVersion, /^v1\.27\./);
    assert.equal(out.serverVersion.major, '1');
    assert.equal(out.serverVersion.minor, '27');
    // The bundle records the commit it was built from.
    assert.match(out.serverVersion.gitCommit, /^[0-9a-f]{40}$/);
  });

  it('api-resources: table with the built-in resources', async () => {
    const out = await s.ok(['api-resources']);
    const [header, ...rows] = lines(out);
    assert.deepEqual(columns(header!), ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    assert.match(out, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    assert.match(out, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    assert.match(out, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
    assert.match(out, /^secrets\s+v1\s+true\s+Secret$/m);
    assert.match(out, /^services\s+svc\s+v1\s+true\s+Service$/m);
    assert.match(out, /^jobs\s+batch\/v1\s+true\s+Job$/m);
    assert.ok(rows.length >= 10, out);
  });

  it('api-resources --namespaced=false -o name', async () => {
    const names = lines(await s.ok(['api-resources', '--namespaced=false', '-o', 'name']));
    assert.ok(names.includes('namespaces'), names.join(','));
    assert.ok(!names.includes('configmaps'), names.join(','));
  });

  it('api-versions: sorted group versions including v1 and apps/v1', async () => {
    const versions = lines(await s.ok(['api-versions']));
    for (const gv of ['v1', 'apps/v1', 'batch/v1', 'coordination.k8s.io/v1']) {
      assert.ok(versions.includes(gv), `${gv} missing from ${versions.join(',')}`);
    }
    assert.deepEqual(versions, [...versions].sort());
  });

  it('explain reads OpenAPI v3: our descriptions, field types, nested paths', async () => {
    const out = await s.ok(['explain', 'deployment']);
    assert.match(out, /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n/);
    assert.match(out, /DESCRIPTION:\n\s+A deployment declares a desired pod template/);
    assert.match(out, /spec\t<DeploymentSpec>/);
    const field = await s.ok(['explain', 'deployment.spec.replicas']);
    assert.match(field, /FIELD: replicas <integer>/);
  });

  it('get namespaces: the four bootstrap namespaces are Active', async () => {
    const [header, ...rows] = lines(await s.ok(['get', 'namespaces']));
    assert.deepEqual(columns(header!), ['NAME', 'STATUS', 'AGE']);
    assert.deepEqual(
      rows.map((r) => columns(r).slice(0, 2)),
      [
        ['default', 'Active'],
        ['kube-node-lease', 'Active'],
        ['kube-public', 'Active'],
        ['kube-system', 'Active'],
      ],
    );
  });

  it('create namespace, then get it by name', async () => {
    assert.equal(await s.ok(['create', 'namespace', 'e2e-disc']), 'namespace/e2e-disc created\n');
    assert.equal(await s.ok(['get', 'ns', 'e2e-disc', '-o', 'name']), 'namespace/e2e-disc\n');
    const r = await s.run(['create', 'namespace', 'e2e-disc']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (AlreadyExists): namespaces "e2e-disc" already exists\n');
  });

  it('get --raw /api/v1/namespaces/default/configmaps returns a ConfigMapList', async () => {
    const list = JSON.parse(await s.ok(['get', '--raw', '/api/v1/namespaces/default/configmaps'])) as {
      kind: string;
      apiVersion: string;
      metadata: { resourceVersion: string };
      items: unknown[];
    };
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.apiVersion, 'v1');
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.ok(Array.isArray(list.items));
  });

  it('get --raw /openapi/v3 lists group-version paths', async () => {
    const doc = JSON.parse(await s.ok(['get', '--raw', '/openapi/v3'])) as {
      paths: Record<string, { serverRelativeURL: string }>;
    };
    assert.match(doc.paths['api/v1']?.serverRelativeURL ?? '', /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]+$/);
    assert.match(doc.paths['apis/apps/v1']?.serverRelativeURL ?? '', /^\/openapi\/v3\/apis\/apps\/v1\?hash=/);
  });

  it('get --raw of an unknown path: NotFound', async () => {
    const r = await s.run(['get', '--raw', '/api/v1/namespaces/default/nopes']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server (NotFound): the server could not find the requested resource\n',
    );
  });

  it('SIGTERM with a kubectl watch open: the watch ends and nanokube exits 0', async () => {
    const watch = s.kubectl.watch(['get', 'namespaces', '--watch']);
    try {
      await watch.waitFor(/^kube-system\s+Active\s+\d+s$/m);
      const exit = await s.server.stop();
      assert.equal(exit.code, 0, exit.stderr);
      assert.ok(exit.ms < 3000, `shutdown took ${exit.ms} ms`);
      const ended = await Promise.race([
        watch.exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref()),
      ]);
      assert.ok(ended, 'kubectl get --watch still running after the server stopped');
    } finally {
      await watch.kill();
    }
  });
});
