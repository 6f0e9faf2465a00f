import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuntimeConfigError, parseRuntimeConfig } from './runtime-config.js';

test('runtime-config defaults: GA and the default-on betas, no alphas', () => {
  const c = parseRuntimeConfig('');
  assert.equal(c.enabled('', 'v1'), true);
  assert.equal(c.enabled('apps', 'v1'), true);
  assert.equal(c.enabled('flowcontrol.apiserver.k8s.io', 'v1beta3'), true);
  assert.equal(c.enabled('authentication.k8s.io', 'v1beta1'), true);
  assert.equal(c.enabled('storage.k8s.io', 'v1beta1'), false);
  assert.equal(c.enabled('certificates.k8s.io', 'v1alpha1'), false);
});

test('runtime-config keys: group-versions, api/* stages, bare keys, later entries win', () => {
  const c = parseRuntimeConfig(
    'certificates.k8s.io/v1alpha1=true,api/beta=false,flowcontrol.apiserver.k8s.io/v1beta3',
  );
  assert.equal(c.enabled('certificates.k8s.io', 'v1alpha1'), true);
  assert.equal(c.enabled('flowcontrol.apiserver.k8s.io', 'v1beta2'), false);
  assert.equal(c.enabled('flowcontrol.apiserver.k8s.io', 'v1beta3'), true);
  const all = parseRuntimeConfig('api/alpha=true,resource.k8s.io/v1alpha2=false');
  assert.equal(all.enabled('networking.k8s.io', 'v1alpha1'), true);
  assert.equal(all.enabled('resource.k8s.io', 'v1alpha2'), false);
  assert.equal(parseRuntimeConfig('api/v1=false').enabled('', 'v1'), false);
  assert.throws(() => parseRuntimeConfig('apps/v1=maybe'), RuntimeConfigError);
  assert.throws(() => parseRuntimeConfig('a/b/c=true'), RuntimeConfigError);
});
