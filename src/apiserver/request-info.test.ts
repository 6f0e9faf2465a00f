import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from './request-info.js';

const info = (method: string, path: string) => parseRequestInfo(method, new URL(path, 'https://x'));

test('resource requests: group, version, namespace, resource, name, subresource, verb', () => {
  assert.deepEqual(
    (({ apiPrefix, group, version, namespace, resource, name, subresource, verb }) => ({
      apiPrefix,
      group,
      version,
      namespace,
      resource,
      name,
      subresource,
      verb,
    }))(info('PUT', '/apis/apps/v1/namespaces/ns/deployments/web/scale')),
    {
      apiPrefix: 'apis',
      group: 'apps',
      version: 'v1',
      namespace: 'ns',
      resource: 'deployments',
      name: 'web',
      subresource: 'scale',
      verb: 'update',
    },
  );
  const list = info('GET', '/api/v1/pods');
  assert.equal(list.verb, 'list');
  assert.equal(list.namespace, '');
  assert.equal(info('GET', '/api/v1/namespaces/ns/pods?watch=true').verb, 'watch');
  assert.equal(info('GET', '/api/v1/watch/namespaces/ns/pods').verb, 'watch');
  assert.equal(info('GET', '/api/v1/namespaces/ns/pods?watch=false').verb, 'list');
  assert.equal(info('DELETE', '/api/v1/namespaces/ns/pods').verb, 'deletecollection');
  assert.equal(info('DELETE', '/api/v1/namespaces/ns/pods/p').verb, 'delete');
  assert.equal(info('PATCH', '/api/v1/namespaces/ns/pods/p/status').subresource, 'status');
});

test('the namespace resource and its subresources', () => {
  const ns = info('GET', '/api/v1/namespaces/foo');
  assert.equal(ns.resource, 'namespaces');
  assert.equal(ns.name, 'foo');
  const fin = info('PUT', '/api/v1/namespaces/foo/finalize');
  assert.equal(fin.resource, 'namespaces');
  assert.equal(fin.subresource, 'finalize');
  assert.equal(info('GET', '/api/v1/namespaces/foo/status').subresource, 'status');
});

test('non-resource requests', () => {
  for (const p of [
    '/api',
    '/apis',
    '/apis/apps',
    '/api/v1',
    '/apis/apps/v1',
    '/healthz',
    '/version',
    '/openapi/v2',
  ]) {
    assert.equal(info('GET', p).isResourceRequest, false, p);
  }
});
