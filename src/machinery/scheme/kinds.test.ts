import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBodyKind, internalTypeName } from './kinds.js';

const cm = { group: '', version: 'v1', kind: 'ConfigMap' };
const deploy = { group: 'apps', version: 'v1', kind: 'Deployment' };
const legacy = 'pkg/api/legacyscheme/scheme.go:30';

describe('checkBodyKind (runtime/scheme.go, serializer/versioning, conversion/converter.go)', () => {
  it('the endpoint kind itself decodes', () => {
    assert.deepEqual(checkBodyKind(cm, cm), { ok: true });
  });

  it('a registered kind of another type fails conversion into the internal type', () => {
    assert.deepEqual(checkBodyKind(cm, { group: '', version: 'v1', kind: 'Secret' }), {
      ok: false,
      decodeError: 'converting (v1.Secret) to (core.ConfigMap): unknown conversion',
    });
    assert.deepEqual(checkBodyKind(deploy, { group: 'batch', version: 'v1beta1', kind: 'CronJob' }), {
      ok: false,
      decodeError: 'converting (v1beta1.CronJob) to (apps.Deployment): unknown conversion',
    });
    assert.deepEqual(checkBodyKind(cm, { group: 'apps', version: 'v1', kind: 'DeleteOptions' }), {
      ok: false,
      decodeError: 'converting (v1.DeleteOptions) to (core.ConfigMap): unknown conversion',
    });
  });

  it('the same internal type in another group/version decodes, then fails the handler check', () => {
    const mismatch = (data: string, expected: string) => ({
      ok: false,
      mismatch: `the API version in the data (${data}) does not match the expected API version (${expected})`,
    });
    assert.deepEqual(
      checkBodyKind(deploy, { ...deploy, version: 'v1beta1' }),
      mismatch('apps/v1beta1', 'apps/v1'),
    );
    assert.deepEqual(
      checkBodyKind(deploy, { group: 'extensions', version: 'v1beta1', kind: 'Deployment' }),
      mismatch('extensions/v1beta1', 'apps/v1'),
    );
    assert.deepEqual(
      checkBodyKind(
        { group: '', version: 'v1', kind: 'Event' },
        { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
      ),
      mismatch('events.k8s.io/v1', 'v1'),
    );
  });

  it('an unregistered group/version/kind', () => {
    assert.deepEqual(checkBodyKind(cm, { group: 'apps', version: 'v1', kind: 'ConfigMap' }), {
      ok: false,
      decodeError: `no kind "ConfigMap" is registered for version "apps/v1" in scheme "${legacy}"`,
    });
    assert.deepEqual(checkBodyKind(cm, { group: '', version: 'v2', kind: 'ConfigMap' }), {
      ok: false,
      decodeError: `no kind "ConfigMap" is registered for version "v2" in scheme "${legacy}"`,
    });
    // apps/v1beta1 never had DaemonSets.
    assert.deepEqual(checkBodyKind(deploy, { group: 'apps', version: 'v1beta1', kind: 'DaemonSet' }), {
      ok: false,
      decodeError: `no kind "DaemonSet" is registered for version "apps/v1beta1" in scheme "${legacy}"`,
    });
  });

  it('apiextensions and the aggregator have schemes of their own', () => {
    const crd = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };
    assert.deepEqual(checkBodyKind(crd, cm), {
      ok: false,
      decodeError:
        'no kind "ConfigMap" is registered for version "v1" in scheme "k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go:56"',
    });
    const svc = { group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService' };
    assert.deepEqual(checkBodyKind(svc, { ...crd, kind: 'Secret', group: '' }), {
      ok: false,
      decodeError:
        'no kind "Secret" is registered for version "v1" in scheme "k8s.io/kube-aggregator/pkg/apiserver/scheme/scheme.go:28"',
    });
  });

  it('names internal types by their Go package', () => {
    assert.equal(internalTypeName('rbac.authorization.k8s.io', 'Role'), 'rbac.Role');
    assert.equal(internalTypeName('events.k8s.io', 'Event'), 'core.Event');
    assert.equal(
      internalTypeName('internal.apiserver.k8s.io', 'StorageVersion'),
      'apiserverinternal.StorageVersion',
    );
  });
});
