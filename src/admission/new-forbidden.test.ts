import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../machinery/errors.js';
import { newForbidden, newForbiddenFrom } from './new-forbidden.js';
import { attrsOf } from './testing/fake-admission-deps.js';

const obj = (metadata: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata });

test('names the resource without its subresource, and the path name first', () => {
  const err = newForbidden(
    attrsOf({
      resource: 'pods',
      kind: 'Pod',
      namespace: 'ns',
      subresource: 'binding',
      name: 'p',
      object: obj({}),
    }),
    'no',
  );
  assert.equal(err.status.message, 'pods "p" is forbidden: no');
  assert.deepEqual(err.status.details, { name: 'p', kind: 'pods' });
  assert.equal(err.code, 403);
});

test('falls back to the object name, its generateName, then Unknown', () => {
  const a = (metadata?: Record<string, string>) =>
    attrsOf({
      group: 'apps',
      resource: 'deployments',
      kind: 'Deployment',
      namespace: 'ns',
      name: '',
      ...(metadata ? { object: obj(metadata) } : {}),
    });
  assert.equal(newForbidden(a({ name: 'd' }), 'x').message, 'deployments.apps "d" is forbidden: x');
  assert.equal(newForbidden(a({ generateName: 'd-' }), 'x').message, 'deployments.apps "d-" is forbidden: x');
  assert.equal(newForbidden(a({}), 'x').message, 'deployments.apps "Unknown" is forbidden: x');
  assert.equal(newForbidden(a(), 'x').message, 'deployments.apps "Unknown" is forbidden: x');
});

test('a Forbidden passes through; other errors are wrapped', () => {
  const a = attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', name: 'p' });
  const inner = new StatusError(403, 'Forbidden', 'already');
  assert.equal(newForbiddenFrom(a, inner), inner);
  assert.equal(newForbiddenFrom(a, new Error('boom')).message, 'pods "p" is forbidden: boom');
});
