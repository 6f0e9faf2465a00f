/**
 * Admission plugins annotate the request's audit event (AM-17): the store hands the request's
 * `addAuditAnnotation` to mutating and validating admission on create, update and delete; a
 * webhook's auditAnnotations are prefixed with its name as upstream's dispatchers do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addAdmissionAuditAnnotation,
  addWebhookAuditAnnotations,
  auditAnnotationKeyError,
} from '../../src/admission/audit-annotations.js';
import { FeatureGates } from '../../src/machinery/features.js';
import type { KubeObject } from '../../src/machinery/object.js';
import { serverUser } from '../../src/machinery/user.js';
import { createMemoryKv } from '../../src/storage/kv/memory/memory-kv.js';
import { KvObjectStore } from '../../src/storage/object-store.js';
import { configMapsResource } from '../../src/registry/resources/core/configmaps.js';
import { GenericStore } from '../../src/registry/generic/store.js';

const cm = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: 'b' },
});

test('AM-17: admission annotations reach the request through the store, for every operation', async () => {
  const store = new GenericStore({
    resource: configMapsResource,
    storage: new KvObjectStore(createMemoryKv()),
    features: new FeatureGates(),
    mutatingAdmission: (attrs) => {
      addAdmissionAuditAnnotation(attrs, 'mutating.example.com/op', attrs.operation);
      return Promise.resolve();
    },
    admission: (attrs) => {
      addWebhookAuditAnnotations(attrs, 'policy.example.com', { verdict: `ok-${attrs.operation}` }, () => {});
      return Promise.resolve();
    },
  });
  const seen: [string, string][] = [];
  const req = {
    dryRun: false,
    user: serverUser,
    addAuditAnnotation: (k: string, v: string) => seen.push([k, v]),
  };
  await store.create('ns', cm('a'), req);
  await store.update('ns', 'a', (cur) => ({ ...cur, data: { a: 'c' } }) as KubeObject, req);
  await store.delete('ns', 'a', req);
  assert.deepEqual(seen, [
    ['mutating.example.com/op', 'CREATE'],
    ['policy.example.com/verdict', 'ok-CREATE'],
    ['mutating.example.com/op', 'UPDATE'],
    ['policy.example.com/verdict', 'ok-UPDATE'],
    // Deletes reach mutating admission too (without an object), as upstream's delete handler.
    ['mutating.example.com/op', 'DELETE'],
    ['policy.example.com/verdict', 'ok-DELETE'],
  ]);
  // Not audited: plugins annotate nothing and nothing fails.
  await store.create('ns', cm('b'), { dryRun: false, user: serverUser });
});

test('AM-17: annotation keys are checked as upstream checkKeyFormat; a webhook’s bad key is skipped', () => {
  assert.equal(auditAnnotationKeyError('example.com/key'), undefined);
  assert.match(
    auditAnnotationKeyError('nokey') ?? '',
    /^annotation key has invalid format, the right format/,
  );
  assert.match(
    auditAnnotationKeyError('a/b/c') ?? '',
    /^annotation key has invalid format, the right format/,
  );
  assert.match(auditAnnotationKeyError('Bad_Prefix!/k') ?? '', /A qualified name like/);
  assert.throws(() => addAdmissionAuditAnnotation({}, 'nokey', 'v'), /annotation key has invalid format/);
  const set: string[] = [];
  const warned: string[] = [];
  addWebhookAuditAnnotations(
    { addAuditAnnotation: (k) => set.push(k) },
    'hook.example.com',
    { good: '1', 'bad/key': '2' },
    (w) => warned.push(w),
  );
  assert.deepEqual(set, ['hook.example.com/good']);
  assert.equal(warned.length, 1);
});
