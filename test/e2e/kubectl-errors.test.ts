/** kubectl 1.27 against `nanokube serve`: the error texts kubectl prints for server-side failures. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { configMapYaml, mismatchedDeploymentYaml, unknownFieldDeploymentYaml } from './support/manifests.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-errors';

describe('kubectl error output against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('setup: namespace', async () => {
    await s.ok(['create', 'namespace', ns]);
  });

  it('not found: get, delete and describe', async () => {
    const get = await s.run(['get', 'configmap', 'nope', '-n', ns]);
    assert.equal(get.code, 1);
    assert.equal(get.stdout, '');
    assert.equal(get.stderr, 'Error from server (NotFound): configmaps "nope" not found\n');
    const del = await s.run(['delete', 'deployment', 'nope', '-n', ns]);
    assert.equal(del.code, 1);
    assert.equal(del.stderr, 'Error from server (NotFound): deployments.apps "nope" not found\n');
    // kubectl 1.27 follows a NotFound by GETting the namespace and reports that one when it is missing.
    const nsMissing = await s.run(['get', 'configmap', 'x', '-n', 'no-such-ns']);
    assert.equal(nsMissing.stderr, 'Error from server (NotFound): namespaces "no-such-ns" not found\n');
  });

  it('create in a missing namespace: NotFound namespace', async () => {
    const r = await s.run(['create', 'configmap', 'x', '-n', 'no-such-ns']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to create configmap: namespaces "no-such-ns" not found\n');
  });

  it('already exists', async () => {
    await s.ok(['create', 'configmap', 'dup', '-n', ns]);
    const r = await s.run(['create', 'configmap', 'dup', '-n', ns]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to create configmap: configmaps "dup" already exists\n');
    const file = s.kubectl.file('dup.yaml', configMapYaml(ns, 'dup', { a: '1' }));
    const f = await s.run(['create', '-f', file]);
    assert.equal(f.code, 1);
    assert.equal(
      f.stderr,
      `Error from server (AlreadyExists): error when creating "${file}": configmaps "dup" already exists\n`,
    );
  });

  it('conflict: replace with a stale resourceVersion', async () => {
    await s.ok(['create', 'configmap', 'c1', '-n', ns, '--from-literal=a=1']);
    const stale = parseYaml(await s.ok(['get', 'cm', 'c1', '-n', ns, '-o', 'yaml'])) as {
      data: Record<string, string>;
    };
    await s.ok(['label', 'cm', 'c1', '-n', ns, 'bump=1']);
    stale.data = { a: '2' };
    const file = s.kubectl.file('stale.yaml', toYaml(stale));
    const r = await s.run(['replace', '-f', file]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error from server (Conflict): error when replacing "${file}": Operation cannot be fulfilled on configmaps "c1": ` +
        'the object has been modified; please apply your changes to the latest version and try again\n',
    );
    assert.equal(await s.ok(['get', 'cm', 'c1', '-n', ns, '-o', 'jsonpath={.data.a}']), '1');
  });

  it('invalid: Deployment whose selector does not match the template labels', async () => {
    const file = s.kubectl.file('bad.yaml', mismatchedDeploymentYaml(ns, 'bad'));
    const r = await s.run(['create', '-f', file]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: ' +
        'map[string]string{"app":"two"}: `selector` does not match template `labels`\n',
    );
    const a = await s.run(['apply', '-f', file]);
    assert.equal(a.code, 1);
    assert.match(
      a.stderr,
      /^The Deployment "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: /,
    );
    const get = await s.run(['get', 'deploy', 'bad', '-n', ns]);
    assert.equal(get.code, 1);
  });

  it('invalid: several field errors are listed one per line', async () => {
    const yaml = mismatchedDeploymentYaml(ns, 'bad2').replace('spec:\n', 'spec:\n  replicas: -1\n');
    const r = await s.run(['create', '-f', s.kubectl.file('bad2.yaml', yaml)]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'The Deployment "bad2" is invalid: \n' +
        '* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n' +
        '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"two"}: ' +
        '`selector` does not match template `labels`\n',
    );
  });

  it('invalid name: RFC 1123 message', async () => {
    const r = await s.run(['create', 'deployment', 'Bad_Name', '-n', ns, '--image=nginx']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'error: failed to create deployment: Deployment.apps "Bad_Name" is invalid: metadata.name: Invalid value: ' +
        '"Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or ' +
        "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for " +
        "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n",
    );
  });

  it('unknown field with --validate=strict: strict decoding error from the server', async () => {
    const file = s.kubectl.file('strict.yaml', unknownFieldDeploymentYaml(ns, 'strict'));
    const r = await s.run(['create', '-f', file, '--validate=strict']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error from server (BadRequest): error when creating "${file}": Deployment in version "v1" cannot be handled ` +
        'as a Deployment: strict decoding error: unknown field "spec.foo"\n',
    );
    assert.equal((await s.run(['get', 'deploy', 'strict', '-n', ns])).code, 1);
  });

  it('unknown field without --validate: kubectl 1.27 defaults to strict', async () => {
    const file = s.kubectl.file('default.yaml', unknownFieldDeploymentYaml(ns, 'defaulted'));
    const r = await s.run(['create', '-f', file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /strict decoding error: unknown field "spec\.foo"\n$/);
  });

  it('unknown field with --validate=warn: created with a warning', async () => {
    const file = s.kubectl.file('warn.yaml', unknownFieldDeploymentYaml(ns, 'warned'));
    const r = await s.run(['create', '-f', file, '--validate=warn']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'deployment.apps/warned created\n');
    assert.equal(r.stderr, 'Warning: unknown field "spec.foo"\n');
    assert.equal(await s.ok(['get', 'deploy', 'warned', '-n', ns, '-o', 'jsonpath={.spec.foo}']), '');
  });

  it('unknown field with --validate=false: created silently', async () => {
    const file = s.kubectl.file('ignore.yaml', unknownFieldDeploymentYaml(ns, 'ignored'));
    const r = await s.run(['create', '-f', file, '--validate=false']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('wrong type in a field: BadRequest with the Go unmarshal text', async () => {
    const file = s.kubectl.file('type.yaml', configMapYaml(ns, 'typed', { a: '1' }).replace('"1"', 'true'));
    const r = await s.run(['create', '-f', file]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error from server (BadRequest): error when creating "${file}": ConfigMap in version "v1" cannot be handled ` +
        'as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string\n',
    );
  });

  it('unknown resource type: client-side error from discovery', async () => {
    const r = await s.run(['get', 'widgets']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: the server doesn\'t have a resource type "widgets"\n');
  });

  itStopsCleanly(s);
});
