import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readAdmissionConfig } from './config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('inline configuration and a relative path are read per plugin', async () => {
  write(
    'quota.yaml',
    'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources: []\n',
  );
  const path = write(
    'admission.yaml',
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: PodSecurity',
      '  configuration:',
      '    apiVersion: pod-security.admission.config.k8s.io/v1',
      '    kind: PodSecurityConfiguration',
      '    defaults: {enforce: baseline}',
      '- name: ResourceQuota',
      '  path: quota.yaml',
    ].join('\n'),
  );
  const config = await readAdmissionConfig(path);
  assert.deepEqual(config.pluginConfig('PodSecurity'), {
    apiVersion: 'pod-security.admission.config.k8s.io/v1',
    kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'baseline' },
  });
  assert.deepEqual(config.pluginConfig('ResourceQuota'), {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'ResourceQuotaConfiguration',
    limitedResources: [],
  });
  assert.equal(config.pluginConfig('LimitRanger'), undefined);
});

test('a missing file, a wrong kind and a missing plugin file refuse to start', async () => {
  const missing = join(dir, 'absent.yaml');
  await assert.rejects(readAdmissionConfig(missing), (err: Error) =>
    err.message.startsWith(`unable to read admission control configuration from "${missing}" [`),
  );
  const wrong = write('wrong.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: Nope\n');
  await assert.rejects(readAdmissionConfig(wrong), {
    message:
      'no kind "Nope" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/admission/config.go"',
  });
  const noPlugin = write(
    'noplugin.yaml',
    'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: nowhere.yaml\n',
  );
  await assert.rejects(readAdmissionConfig(noPlugin), (err: Error) =>
    err.message.startsWith(`Couldn't open admission plugin configuration ${join(dir, 'nowhere.yaml')}`),
  );
});
