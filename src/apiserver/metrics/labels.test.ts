import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from '../request-info.js';
import { dryRunOf, reportedVerb, scopeOf, subresourceOf } from './labels.js';

function labels(method: string, path: string, contentType?: string): [string, string] {
  const info = parseRequestInfo(method, new URL(path, 'https://x'));
  const scope = scopeOf(info);
  return [reportedVerb(method, scope, info, contentType), scope];
}

test('verb and scope as upstream reports them (the HTTP method, GET told from LIST)', () => {
  const ns = '/api/v1/namespaces/default';
  assert.deepEqual(labels('POST', `${ns}/configmaps`), ['POST', 'resource']);
  assert.deepEqual(labels('GET', `${ns}/configmaps/a`), ['GET', 'resource']);
  assert.deepEqual(labels('HEAD', `${ns}/configmaps/a`), ['GET', 'resource']);
  assert.deepEqual(labels('GET', `${ns}/configmaps`), ['LIST', 'namespace']);
  assert.deepEqual(labels('GET', '/api/v1/configmaps'), ['LIST', 'cluster']);
  assert.deepEqual(labels('GET', '/api/v1/namespaces'), ['LIST', 'cluster']);
  assert.deepEqual(labels('GET', '/api/v1/namespaces/default'), ['GET', 'resource']);
  assert.deepEqual(labels('PUT', `${ns}/configmaps/a`), ['PUT', 'resource']);
  assert.deepEqual(labels('PATCH', `${ns}/configmaps/a`, 'application/merge-patch+json'), [
    'PATCH',
    'resource',
  ]);
  assert.deepEqual(labels('DELETE', `${ns}/configmaps/a`), ['DELETE', 'resource']);
  assert.deepEqual(labels('DELETE', `${ns}/configmaps`), ['DELETE', 'namespace']);
  assert.deepEqual(labels('OPTIONS', `${ns}/configmaps`), ['other', 'namespace']);
});

test('WATCH (both spellings), APPLY and CONNECT', () => {
  assert.deepEqual(labels('GET', '/api/v1/namespaces/default/pods?watch=true'), ['WATCH', 'namespace']);
  assert.deepEqual(labels('GET', '/api/v1/watch/namespaces/default/pods'), ['WATCH', 'namespace']);
  assert.deepEqual(labels('GET', '/api/v1/pods?watch=1'), ['WATCH', 'cluster']);
  assert.deepEqual(labels('GET', '/api/v1/pods?watch=false'), ['LIST', 'cluster']);
  const pod = '/api/v1/namespaces/default/pods/web';
  assert.deepEqual(labels('PATCH', pod, 'application/apply-patch+yaml'), ['APPLY', 'resource']);
  // Upstream compares the header as a whole.
  assert.deepEqual(labels('PATCH', pod, 'application/apply-patch+yaml; charset=utf-8'), [
    'PATCH',
    'resource',
  ]);
  assert.deepEqual(labels('GET', `${pod}/log`), ['CONNECT', 'resource']);
  assert.deepEqual(labels('POST', `${pod}/exec?command=ls`), ['CONNECT', 'resource']);
  assert.deepEqual(labels('GET', `${pod}/status`), ['GET', 'resource']);
});

test('non-resource paths: scope "", the method as verb', () => {
  assert.deepEqual(labels('GET', '/healthz'), ['GET', '']);
  assert.deepEqual(labels('HEAD', '/readyz'), ['GET', '']);
  assert.deepEqual(labels('POST', '/healthz'), ['POST', '']);
});

test('subresource: the first segment of a proxy path', () => {
  const info = parseRequestInfo('GET', new URL('https://x/api/v1/namespaces/d/pods/web/proxy/a/b'));
  assert.equal(subresourceOf(info), 'proxy');
  assert.equal(subresourceOf(parseRequestInfo('GET', new URL('https://x/api/v1/pods'))), '');
});

test('dry_run: "" without the parameter, "All", or "invalid"', () => {
  assert.equal(dryRunOf(new URL('https://x/api/v1/pods')), '');
  assert.equal(dryRunOf(new URL('https://x/api/v1/pods?dryRun=All')), 'All');
  assert.equal(dryRunOf(new URL('https://x/api/v1/pods?dryRun=All&dryRun=All')), 'All');
  assert.equal(dryRunOf(new URL('https://x/api/v1/pods?dryRun=all')), 'invalid');
  assert.equal(dryRunOf(new URL('https://x/api/v1/pods?dryRun=')), 'invalid');
});
