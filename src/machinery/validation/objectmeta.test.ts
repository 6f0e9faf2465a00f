import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../field/errors.js';
import type { ObjectMeta } from '../object.js';
import {
  validateAnnotations,
  validateLabels,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './objectmeta.js';

const msgs = (errs: { toString(): string }[]): string[] => errs.map((e) => e.toString());
const ns = { namespaced: true, nameValidation: 'dns1123Subdomain' } as const;
const cluster = { namespaced: false, nameValidation: 'dns1123Label' } as const;
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateObjectMeta', () => {
  it('accepts a plain object', () => {
    assert.deepEqual(validateObjectMeta({ name: 'a', namespace: 'default', labels: { app: 'x' } }, ns), []);
    assert.deepEqual(validateObjectMeta({ name: 'node-1' }, cluster), []);
  });
  it('requires a name', () => {
    assert.deepEqual(msgs(validateObjectMeta({ namespace: 'default' }, ns)), [
      'metadata.name: Required value: name or generateName is required',
    ]);
  });
  it('validates name and generateName with the chosen function', () => {
    assert.deepEqual(msgs(validateObjectMeta({ name: 'Bad', namespace: 'default' }, ns)), [
      `metadata.name: Invalid value: "Bad": ${subdomainMsg}`,
    ]);
    assert.deepEqual(
      msgs(validateObjectMeta({ name: 'web-x1', generateName: 'web-', namespace: 'd' }, ns)),
      [],
    );
    assert.deepEqual(msgs(validateObjectMeta({ name: 'a.b' }, cluster)), [
      'metadata.name: Invalid value: "a.b": must not contain dots',
    ]);
    assert.deepEqual(
      msgs(validateObjectMeta({ name: 'x' }, { namespaced: false, nameValidation: 'pathSegment' })),
      [],
    );
    assert.deepEqual(
      msgs(validateObjectMeta({ name: '..' }, { namespaced: false, nameValidation: 'pathSegment' })),
      [`metadata.name: Invalid value: "..": may not be '..'`],
    );
  });
  it('checks the namespace', () => {
    assert.deepEqual(msgs(validateObjectMeta({ name: 'a' }, ns)), ['metadata.namespace: Required value']);
    assert.deepEqual(msgs(validateObjectMeta({ name: 'a', namespace: 'x' }, cluster)), [
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
    assert.equal(
      msgs(validateObjectMeta({ name: 'a', namespace: 'A' }, ns))[0]?.startsWith(
        'metadata.namespace: Invalid value: "A": a lowercase RFC 1123 label',
      ),
      true,
    );
  });
  it('checks generation, labels, annotations, finalizers', () => {
    const meta: ObjectMeta = {
      name: 'a',
      namespace: 'd',
      generation: -1,
      labels: { 'bad key': 'v', ok: '-bad' },
      annotations: { 'Example.com/Key': 'fine', 'a/b/c': 'x' },
      finalizers: ['kubernetes.io/pvc-protection', 'orphan', 'foregroundDeletion'],
    };
    const out = msgs(validateObjectMeta(meta, ns));
    assert.equal(out[0], 'metadata.generation: Invalid value: -1: must be greater than or equal to 0');
    assert.match(out[1]!, /^metadata\.labels: Invalid value: "bad key": name part must consist of/);
    assert.match(out[2]!, /^metadata\.labels: Invalid value: "-bad": a valid label must be an empty string/);
    assert.match(out[3]!, /^metadata\.annotations: Invalid value: "a\/b\/c": a qualified name must consist/);
    assert.equal(
      out[4],
      'metadata.finalizers: Invalid value: []string{"kubernetes.io/pvc-protection", "orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    );
    assert.equal(out.length, 5);
  });
  it('limits total annotation size', () => {
    const path = FieldPath.root('metadata', 'annotations');
    assert.deepEqual(validateAnnotations({ a: 'x'.repeat(262143) }, path), []);
    assert.deepEqual(msgs(validateAnnotations({ a: 'x'.repeat(262144) }, path)), [
      'metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
    assert.deepEqual(validateLabels(undefined, path), []);
  });
  it('checks owner references', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs1', uid: 'u1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs2', uid: 'u2', controller: true },
      { apiVersion: '', kind: '', name: '', uid: '' },
      { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u3' },
    ];
    const out = msgs(validateObjectMeta({ name: 'a', namespace: 'd', ownerReferences: refs }, ns));
    assert.match(
      out[0]!,
      /^metadata\.ownerReferences: Invalid value: \[\]v1\.OwnerReference\{v1\.OwnerReference\{APIVersion:"apps\/v1", Kind:"ReplicaSet", Name:"rs1", UID:"u1", Controller:\(\*bool\)\(0x[0-9a-f]+\), BlockOwnerDeletion:\(\*bool\)\(nil\)\}, .*\}: Only one reference can have Controller set to true\. Found "true" in references for ReplicaSet\/rs1 and ReplicaSet\/rs2$/,
    );
    assert.deepEqual(out.slice(1, 5), [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
    assert.equal(
      out[5],
      'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"u3", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
    );
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'd',
    uid: 'u1',
    resourceVersion: '5',
    generation: 2,
    creationTimestamp: '2024-01-02T03:04:05Z',
  };
  it('accepts an unchanged identity', () => {
    assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old), []);
  });
  it('reports immutable fields with upstream texts', () => {
    const out = msgs(
      validateObjectMetaUpdate(
        {
          ...old,
          name: 'x',
          namespace: 'e',
          uid: 'u2',
          creationTimestamp: '2025-01-01T00:00:00Z',
          generation: 1,
        },
        old,
      ),
    );
    assert.deepEqual(out, [
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.name: Invalid value: "x": field is immutable',
      'metadata.namespace: Invalid value: "e": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
      'metadata.creationTimestamp: Invalid value: 2025-01-01 00:00:00 +0000 UTC: field is immutable',
    ]);
  });
  it('requires a resourceVersion', () => {
    const noRV: ObjectMeta = { ...old };
    delete noRV.resourceVersion;
    assert.deepEqual(msgs(validateObjectMetaUpdate(noRV, old)), [
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
  });
  it('guards deletion fields and finalizers of deleting objects', () => {
    const deleting: ObjectMeta = {
      ...old,
      deletionTimestamp: '2024-02-02T00:00:00Z',
      deletionGracePeriodSeconds: 30,
      finalizers: ['a'],
    };
    assert.deepEqual(msgs(validateObjectMetaUpdate({ ...old }, deleting)), [
      'metadata.deletionTimestamp: Invalid value: "null": field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: "null": field is immutable',
    ]);
    assert.deepEqual(msgs(validateObjectMetaUpdate({ ...deleting, finalizers: ['a', 'c', 'b'] }, deleting)), [
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "c"}',
    ]);
    assert.deepEqual(msgs(validateObjectMetaUpdate(old, { ...old })), []);
    assert.deepEqual(msgs(validateObjectMetaUpdate({ ...old, deletionGracePeriodSeconds: 0 }, old)), [
      'metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable',
    ]);
  });
});
