import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enabledPluginNames, parsePluginList, validateAdmissionPluginFlags } from './options.js';

test('the v1.27 default plugins run in upstream order', () => {
  assert.deepEqual(enabledPluginNames({}), [
    'NamespaceLifecycle',
    'LimitRanger',
    'ServiceAccount',
    'TaintNodesByCondition',
    'PodSecurity',
    'Priority',
    'DefaultTolerationSeconds',
    'DefaultStorageClass',
    'StorageObjectInUseProtection',
    'PersistentVolumeClaimResize',
    'RuntimeClass',
    'CertificateApproval',
    'CertificateSigning',
    'ClusterTrustBundleAttest',
    'CertificateSubjectRestriction',
    'DefaultIngressClass',
    'MutatingAdmissionWebhook',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionWebhook',
    'ResourceQuota',
  ]);
});

test('enabled plugins join in upstream order, whatever the flag order', () => {
  const names = enabledPluginNames({
    enable: ['EventRateLimit', 'NodeRestriction', 'AlwaysPullImages'],
    disable: ['ServiceAccount', 'ResourceQuota'],
  });
  assert.deepEqual(names.slice(0, 6), [
    'NamespaceLifecycle',
    'LimitRanger',
    'NodeRestriction',
    'TaintNodesByCondition',
    'AlwaysPullImages',
    'PodSecurity',
  ]);
  assert.ok(names.indexOf('EventRateLimit') > names.indexOf('DefaultTolerationSeconds'));
  assert.ok(!names.includes('ServiceAccount') && !names.includes('ResourceQuota'));
});

test('unknown and overlapping names are upstream errors', () => {
  assert.deepEqual(validateAdmissionPluginFlags({ enable: ['Nope'], disable: ['Gone'] }), [
    'enable-admission-plugins plugin "Nope" is unknown',
    'disable-admission-plugins plugin "Gone" is unknown',
  ]);
  assert.deepEqual(
    validateAdmissionPluginFlags({
      enable: ['Priority', 'LimitRanger'],
      disable: ['LimitRanger', 'Priority'],
    }),
    ['[LimitRanger Priority] in enable-admission-plugins and disable-admission-plugins overlapped'],
  );
  assert.throws(() => enabledPluginNames({ enable: ['Nope'] }), {
    message: 'enable-admission-plugins plugin "Nope" is unknown',
  });
  assert.throws(() => enabledPluginNames({ enable: ['Nope', 'Nah'] }), {
    message:
      '[enable-admission-plugins plugin "Nope" is unknown, enable-admission-plugins plugin "Nah" is unknown]',
  });
});

test('flag lists split on commas', () => {
  assert.deepEqual(parsePluginList('A, B,,C'), ['A', 'B', 'C']);
  assert.deepEqual(parsePluginList(''), []);
});
