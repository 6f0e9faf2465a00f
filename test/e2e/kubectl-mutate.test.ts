/** kubectl 1.27 against `nanokube serve`: label, annotate, patch, replace, edit, scale, dry-run, watch. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { webAppYaml } from './support/manifests.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-mutate';

describe(
  'kubectl label/annotate/patch/replace/edit/scale/watch against nanokube serve',
  { skip: kubectlSkip },
  () => {
    const s = kubectlSession();
    const jsonpath = (kind: string, name: string, path: string): Promise<string> =>
      s.ok(['get', kind, name, '-n', ns, '-o', `jsonpath=${path}`]);

    it('setup: namespace, app and a configmap', async () => {
      await s.ok(['create', 'namespace', ns]);
      await s.ok(['apply', '-f', s.kubectl.file('app.yaml', webAppYaml(ns))]);
      assert.equal(
        await s.ok(['create', 'configmap', 'c1', '-n', ns, '--from-literal=a=1']),
        'configmap/c1 created\n',
      );
    });

    it('label: add, conflict without --overwrite, overwrite, remove', async () => {
      assert.equal(await s.ok(['label', 'cm', 'c1', '-n', ns, 'tier=backend']), 'configmap/c1 labeled\n');
      const r = await s.run(['label', 'cm', 'c1', '-n', ns, 'tier=frontend']);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, "error: 'tier' already has a value (backend), and --overwrite is false\n");
      assert.equal(
        await s.ok(['label', 'cm', 'c1', '-n', ns, 'tier=frontend', '--overwrite']),
        'configmap/c1 labeled\n',
      );
      assert.equal(await jsonpath('cm', 'c1', '{.metadata.labels.tier}'), 'frontend');
      assert.equal(await s.ok(['label', 'cm', 'c1', '-n', ns, 'tier-']), 'configmap/c1 unlabeled\n');
      assert.equal(await jsonpath('cm', 'c1', '{.metadata.labels.tier}'), '');
    });

    it('label: removing the last label leaves no labels map (omitempty)', async () => {
      await s.ok(['create', 'configmap', 'lbl', '-n', ns]);
      await s.ok(['label', 'cm', 'lbl', '-n', ns, 'only=1']);
      await s.ok(['label', 'cm', 'lbl', '-n', ns, 'only-']);
      const obj = JSON.parse(await s.ok(['get', 'cm', 'lbl', '-n', ns, '-o', 'json'])) as {
        metadata: Record<string, unknown>;
      };
      assert.equal(obj.metadata['labels'], undefined);
    });

    it('annotate: add, conflict without --overwrite, overwrite', async () => {
      assert.match(
        await s.ok(['annotate', 'cm', 'c1', '-n', ns, 'note=first']),
        /^configmap\/c1 annotated?\n$/,
      );
      const r = await s.run(['annotate', 'cm', 'c1', '-n', ns, 'note=second']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /'note' already has a value \(first\)/);
      assert.equal(
        r.stderr,
        "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (first)\n",
      );
      await s.ok(['annotate', 'cm', 'c1', '-n', ns, 'note=second', '--overwrite']);
      assert.equal(await jsonpath('cm', 'c1', '{.metadata.annotations.note}'), 'second');
    });

    it('patch --type=strategic merges containers by name (new ones first)', async () => {
      const patch =
        '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox:1.36"}]}}}}';
      assert.equal(
        await s.ok(['patch', 'deployment', 'web', '-n', ns, '--type=strategic', '-p', patch]),
        'deployment.apps/web patched\n',
      );
      assert.equal(
        await jsonpath('deploy', 'web', '{.spec.template.spec.containers[*].name}'),
        'sidecar nginx',
      );
      assert.equal(await jsonpath('deploy', 'web', '{.metadata.generation}'), '2');
      const again = await s.ok(['patch', 'deployment', 'web', '-n', ns, '-p', patch]);
      assert.equal(again, 'deployment.apps/web patched (no change)\n');
    });

    it('patch --type=merge replaces lists and merges maps', async () => {
      assert.equal(
        await s.ok(['patch', 'cm', 'c1', '-n', ns, '--type=merge', '-p', '{"data":{"b":"2","a":null}}']),
        'configmap/c1 patched\n',
      );
      assert.equal(await jsonpath('cm', 'c1', '{.data}'), '{"b":"2"}');
    });

    it('patch --type=json applies RFC 6902 operations; a failed test op is rejected', async () => {
      const ops =
        '[{"op":"add","path":"/data/c","value":"3"},{"op":"replace","path":"/data/b","value":"22"}]';
      assert.equal(
        await s.ok(['patch', 'cm', 'c1', '-n', ns, '--type=json', '-p', ops]),
        'configmap/c1 patched\n',
      );
      assert.equal(await jsonpath('cm', 'c1', '{.data}'), '{"b":"22","c":"3"}');
      const r = await s.run([
        'patch',
        'cm',
        'c1',
        '-n',
        ns,
        '--type=json',
        '-p',
        '[{"op":"test","path":"/data/c","value":"x"}]',
      ]);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^The request is invalid/);
      assert.equal(await jsonpath('cm', 'c1', '{.data.c}'), '3');
    });

    it('replace -f with the current object', async () => {
      const current = parseYaml(await s.ok(['get', 'cm', 'c1', '-n', ns, '-o', 'yaml'])) as {
        data: Record<string, string>;
        metadata: { resourceVersion: string };
      };
      current.data = { replaced: 'first' };
      const file = s.kubectl.file('c1.yaml', toYaml(current));
      assert.equal(await s.ok(['replace', '-f', file]), 'configmap/c1 replaced\n');
      assert.equal(await jsonpath('cm', 'c1', '{.data}'), '{"replaced":"first"}');
      const rv = await jsonpath('cm', 'c1', '{.metadata.resourceVersion}');
      assert.ok(
        Number(rv) > Number(current.metadata.resourceVersion),
        `${rv} after ${current.metadata.resourceVersion}`,
      );
    });

    it('edit with a scripted EDITOR', async () => {
      const editor = s.kubectl.file(
        'editor.sh',
        '#!/bin/sh\nsed -i "s/replaced: first/replaced: edited/" "$1"\n',
      );
      const out = await s.ok(['edit', 'cm', 'c1', '-n', ns], {
        env: { EDITOR: editor, KUBE_EDITOR: editor },
      });
      assert.equal(out, 'configmap/c1 edited\n');
      assert.equal(await jsonpath('cm', 'c1', '{.data.replaced}'), 'edited');
    });

    it('edit that changes nothing: "Edit cancelled"', async () => {
      const editor = s.kubectl.file('noop.sh', '#!/bin/sh\ntrue\n');
      const r = await s.run(['edit', 'cm', 'c1', '-n', ns], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
      assert.equal(r.code, 0);
      assert.equal(r.stderr, 'Edit cancelled, no changes made.\n');
    });

    it('scale deployment --replicas=3', async () => {
      assert.equal(
        await s.ok(['scale', 'deployment', 'web', '-n', ns, '--replicas=3']),
        'deployment.apps/web scaled\n',
      );
      assert.equal(await jsonpath('deploy', 'web', '{.spec.replicas}'), '3');
      const r = await s.run(['scale', 'deployment', 'web', '-n', ns, '--replicas=4', '--current-replicas=2']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^error: Expected replicas to be 2, was 3\n$/);
      assert.equal(await jsonpath('deploy', 'web', '{.spec.replicas}'), '3');
    });

    it('create --dry-run=server returns the object but does not persist it', async () => {
      const out = await s.ok([
        'create',
        'configmap',
        'dry',
        '-n',
        ns,
        '--from-literal=x=y',
        '--dry-run=server',
        '-o',
        'yaml',
      ]);
      const obj = parseYaml(out) as { metadata: { name: string; uid?: string; creationTimestamp?: string } };
      assert.equal(obj.metadata.name, 'dry');
      assert.ok(obj.metadata.creationTimestamp !== undefined, out);
      assert.equal(
        await s.ok(['create', 'configmap', 'dry', '-n', ns, '--from-literal=x=y', '--dry-run=server']),
        'configmap/dry created (server dry run)\n',
      );
      const r = await s.run(['get', 'cm', 'dry', '-n', ns]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'Error from server (NotFound): configmaps "dry" not found\n');
    });

    it('get --watch on one object shows the update made by another kubectl', async () => {
      await s.ok(['create', 'configmap', 'watched', '-n', ns, '--from-literal=first=1']);
      const watch = s.kubectl.watch(['get', 'cm', 'watched', '-n', ns, '--watch', '--output-watch-events']);
      try {
        await watch.waitFor(/^ADDED\s+watched\s+1\s+\d+s$/m);
        await s.ok(['patch', 'cm', 'watched', '-n', ns, '--type=merge', '-p', '{"data":{"second":"2"}}']);
        const out = await watch.waitFor(/^MODIFIED\s+watched\s+2\s+\d+s$/m);
        assert.match(out, /^EVENT\s+NAME\s+DATA\s+AGE$/m);
        await s.ok(['delete', 'cm', 'watched', '-n', ns, '--wait=false']);
        await watch.waitFor(/^DELETED\s+watched\s+2\s+\d+s$/m);
      } finally {
        await watch.kill();
      }
    });

    it('get --watch -o name prints a line per change', async () => {
      await s.ok(['create', 'configmap', 'w', '-n', ns]);
      const watch = s.kubectl.watch(['get', 'cm', 'w', '-n', ns, '--watch', '-o', 'name']);
      try {
        await watch.waitFor(/^configmap\/w\n$/);
        await s.ok(['label', 'cm', 'w', '-n', ns, 'x=1']);
        await watch.waitFor(/^configmap\/w\nconfigmap\/w\n$/);
      } finally {
        await watch.kill();
      }
    });

    itStopsCleanly(s);
  },
);
