import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../machinery/errors.js';
import { decodedRequestPath } from './request-path.js';

const rejects = (target: string, message: RegExp): void =>
  assert.throws(
    () => decodedRequestPath(target),
    (e: unknown) => e instanceof StatusError && e.code === 400 && message.test(e.message),
  );

test('decodes the path like Go (an encoded slash splits segments) and drops the query', () => {
  assert.equal(
    decodedRequestPath('/api/v1/namespaces/default/configmaps/a%2Db?x=%2e%2e'),
    '/api/v1/namespaces/default/configmaps/a-b',
  );
  assert.equal(
    decodedRequestPath('/api/v1/namespaces/default/configmaps/a%2Fb'),
    '/api/v1/namespaces/default/configmaps/a/b',
  );
});

test('refuses dot segments, plain or encoded, instead of resolving them', () => {
  rejects('/api/v1/namespaces/default/configmaps/..', /^Name parameter invalid: "\.\.": may not be '\.\.'$/);
  rejects('/api/v1/namespaces/default/configmaps/%2e%2E', /may not be '\.\.'/);
  rejects('/api/v1/namespaces/default/configmaps/%2e', /may not be '\.'/);
});

test('refuses malformed escapes', () => {
  rejects('/api/v1/namespaces/default/configmaps/%E2%82', /invalid URL escape/);
  rejects('/api/v1/namespaces/default/configmaps/%zz', /invalid URL escape/);
});
