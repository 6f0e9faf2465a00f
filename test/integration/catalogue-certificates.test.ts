/**
 * Certificates.k8s.io/v1 CertificateSigningRequest (+status, +approval) and
 * certificates.k8s.io/v1alpha1 ClusterTrustBundle end to end, as kube-apiserver v1.27: discovery
 * as the reference server's, the requester recorded on create, validation Status messages, what
 * each of the main resource, /status and /approval may change, Table output and field selectors.
 * Until the composition root serves the group (v1alpha1 only with the ClusterTrustBundle gate and
 * runtime-config), the resources are registered here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { b64, makeCert, makeCsr } from '../../src/apis/certificates/testdata/fixtures.js';
import {
  certificatesV1Resources,
  certificatesV1alpha1Resources,
} from '../../src/registry/resources/certificates/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/alpha-gates-on/discovery');
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const v1 = '/apis/certificates.k8s.io/v1';
const v1alpha1 = '/apis/certificates.k8s.io/v1alpha1';
const csrs = `${v1}/certificatesigningrequests`;
const ctbs = `${v1alpha1}/clustertrustbundles`;

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

let s: TestServer;
let request: string;
let ca: string;
let ca2: string;
before(async () => {
  s = await startTestServer({ controllers: false, storage: 'memory' });
  if ((await s.request('GET', v1)).status === 404)
    for (const r of certificatesV1Resources) s.resources.add(r);
  if ((await s.request('GET', v1alpha1)).status === 404) {
    for (const r of certificatesV1alpha1Resources) s.resources.add(r);
  }
  [request, ca, ca2] = await Promise.all([makeCsr('alice'), makeCert('ca', true), makeCert('ca2', true)]);
});
after(() => s.stop());

function csr(name: string, spec: Json = {}): Json {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(request),
      signerName: 'example.com/signer',
      usages: ['client auth', 'digital signature'],
      expirationSeconds: 3600,
      ...spec,
    },
  };
}

for (const [version, file] of [
  [v1, 'apis_certificates.k8s.io_v1.json'],
  [v1alpha1, 'apis_certificates.k8s.io_v1alpha1.json'],
] as const) {
  it(`discovery of ${version} equals the reference server`, async (t) => {
    const r = await s.request('GET', version);
    assert.equal(r.status, 200, r.text);
    const ref = join(refDir, file);
    if (!existsSync(ref)) {
      t.skip(`reference discovery not found at ${ref}`);
      return;
    }
    const want = (JSON.parse(readFileSync(ref, 'utf8')) as { resources: Json[] }).resources;
    assert.deepEqual(r.json<{ resources: Json[] }>().resources, want);
  });
}

describe('CertificateSigningRequest', () => {
  it('records the requesting user, clears status, prints and selects on the signer', async () => {
    const body = csr('alice-1', { username: 'mallory', groups: ['forged'] });
    body['status'] = { conditions: [{ type: 'Approved', status: 'True' }] };
    const created = await s.request('POST', csrs, { body });
    assert.equal(created.status, 201, created.text);
    const obj = created.json();
    assert.equal(at(obj, 'spec', 'username'), 'kubernetes-admin');
    assert.deepEqual(at(obj, 'spec', 'groups'), ['system:masters', 'system:authenticated']);
    assert.deepEqual(obj['status'], {});

    const t = (await s.request('GET', `${csrs}/alice-1`, { accept: table })).json<{
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    }>();
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
    assert.deepEqual(t.rows[0]!.cells.slice(2), ['example.com/signer', 'kubernetes-admin', '60m', 'Pending']);

    const sel = await s.request('GET', `${csrs}?fieldSelector=spec.signerName%3Dexample.com%2Fsigner`);
    assert.deepEqual(
      sel.json<{ items: Json[] }>().items.map((i) => at(i, 'metadata', 'name')),
      ['alice-1'],
    );
    const none = await s.request('GET', `${csrs}?fieldSelector=spec.signerName%3Dother.com%2Fx`);
    assert.deepEqual(none.json<{ items: Json[] }>().items, []);
  });

  it('rejects bad requests with upstream messages', async () => {
    const r = await s.request('POST', csrs, {
      body: csr('bad', {
        request: b64('nope'),
        usages: [],
        signerName: 'kubernetes.io/legacy-unknown',
        expirationSeconds: 60,
      }),
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'CertificateSigningRequest.certificates.k8s.io "bad" is invalid: [' +
        'spec.request: Invalid value: []byte{0x6e, 0x6f, 0x70, 0x65}: PEM block type must be CERTIFICATE REQUEST, ' +
        'spec.usages: Required value, ' +
        'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version, ' +
        'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)]',
    );
  });

  it('main resource, /approval and /status each change only their part', async () => {
    const created = await s.request('POST', csrs, { body: csr('flow') });
    assert.equal(created.status, 201, created.text);

    // The main resource keeps spec and status; metadata changes.
    const patched = await s.request('PATCH', `${csrs}/flow`, {
      contentType: mergePatch,
      body: {
        metadata: { labels: { a: 'b' } },
        spec: { signerName: 'other.com/x' },
        status: { certificate: b64(ca) },
      },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(at(patched.json(), 'spec', 'signerName'), 'example.com/signer');
    assert.deepEqual(patched.json()['status'], {});
    assert.deepEqual(at(patched.json(), 'metadata', 'labels'), { a: 'b' });

    // /status may not approve.
    const viaStatus = await s.request('PATCH', `${csrs}/flow/status`, {
      contentType: mergePatch,
      body: { status: { conditions: [{ type: 'Approved', status: 'True' }] } },
    });
    assert.equal(viaStatus.status, 422, viaStatus.text);
    assert.match(
      String(viaStatus.json()['message']),
      /status\.conditions: Forbidden: updates may not add a condition of type "Approved"/,
    );

    // /approval approves; the condition gets its timestamps.
    const approved = await s.request('PATCH', `${csrs}/flow/approval`, {
      contentType: mergePatch,
      body: {
        status: { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }], certificate: b64(ca) },
      },
    });
    assert.equal(approved.status, 200, approved.text);
    const cond = at(approved.json(), 'status', 'conditions', 0) as Json;
    assert.equal(cond['type'], 'Approved');
    assert.equal(typeof cond['lastUpdateTime'], 'string');
    assert.equal(typeof cond['lastTransitionTime'], 'string');
    assert.equal(
      at(approved.json(), 'status', 'certificate'),
      undefined,
      '/approval does not set the certificate',
    );

    // /approval cannot add Denied next to Approved.
    const both = await s.request('PUT', `${csrs}/flow/approval`, {
      body: {
        ...approved.json(),
        status: { conditions: [cond, { type: 'Denied', status: 'True' }] },
      },
    });
    assert.equal(both.status, 422, both.text);
    assert.match(
      String(both.json()['message']),
      /status\.conditions\[1\]\.type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive/,
    );

    // The signer issues through /status; the certificate is then fixed.
    const issued = await s.request('PATCH', `${csrs}/flow/status`, {
      contentType: mergePatch,
      body: { status: { certificate: b64(ca) } },
    });
    assert.equal(issued.status, 200, issued.text);
    assert.equal(at(issued.json(), 'status', 'certificate'), b64(ca));
    const again = await s.request('PATCH', `${csrs}/flow/status`, {
      contentType: mergePatch,
      body: { status: { certificate: b64(ca2) } },
    });
    assert.equal(again.status, 422, again.text);
    assert.match(
      String(again.json()['message']),
      /status\.certificate: Forbidden: updates may not modify existing certificate content/,
    );
    const garbage = await s.request('POST', csrs, { body: csr('garbage') });
    assert.equal(garbage.status, 201);
    const bad = await s.request('PATCH', `${csrs}/garbage/status`, {
      contentType: mergePatch,
      body: { status: { certificate: b64('not pem') } },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.match(
      String(bad.json()['message']),
      /status\.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block/,
    );

    const row = (await s.request('GET', `${csrs}/flow`, { accept: table })).json<{
      rows: { cells: unknown[] }[];
    }>();
    assert.equal(row.rows[0]!.cells[5], 'Approved,Issued');
    const got = await s.request('GET', `${csrs}/flow/approval`);
    assert.equal(got.status, 200, got.text);
  });
});

describe('ClusterTrustBundle', () => {
  const bundle = (name: string, spec: Json): Json => ({
    apiVersion: 'certificates.k8s.io/v1alpha1',
    kind: 'ClusterTrustBundle',
    metadata: { name },
    spec,
  });

  it('creates, prints, selects; names follow the signer; updates need a resourceVersion', async () => {
    const created = await s.request('POST', ctbs, {
      body: bundle('example.com:signer:one', { signerName: 'example.com/signer', trustBundle: ca }),
    });
    assert.equal(created.status, 201, created.text);
    const plain = await s.request('POST', ctbs, { body: bundle('plain', { trustBundle: ca + ca2 }) });
    assert.equal(plain.status, 201, plain.text);

    const t = (await s.request('GET', ctbs, { accept: table })).json<{
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    }>();
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'SignerName'],
    );
    assert.deepEqual(
      t.rows.map((r) => r.cells),
      [
        ['example.com:signer:one', 'example.com/signer'],
        ['plain', '<none>'],
      ],
    );
    const sel = await s.request('GET', `${ctbs}?fieldSelector=spec.signerName%3Dexample.com%2Fsigner`);
    assert.deepEqual(
      sel.json<{ items: Json[] }>().items.map((i) => at(i, 'metadata', 'name')),
      ['example.com:signer:one'],
    );

    const misnamed = await s.request('POST', ctbs, {
      body: bundle('one', { signerName: 'example.com/signer', trustBundle: ca + ca }),
    });
    assert.equal(misnamed.status, 422, misnamed.text);
    assert.equal(
      misnamed.json()['message'],
      'ClusterTrustBundle.certificates.k8s.io "one" is invalid: [' +
        'metadata.name: Invalid value: "one": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:, ' +
        'spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 1])]',
    );

    const unconditional = await s.request('PUT', `${ctbs}/plain`, {
      body: bundle('plain', { trustBundle: ca }),
    });
    assert.equal(unconditional.status, 422, unconditional.text);
    assert.match(
      String(unconditional.json()['message']),
      /metadata\.resourceVersion: Invalid value: 0: must be specified for an update/,
    );

    const resigned = await s.request('PATCH', `${ctbs}/example.com:signer:one`, {
      contentType: mergePatch,
      body: { spec: { signerName: 'example.com/other' } },
    });
    assert.equal(resigned.status, 422, resigned.text);
    assert.match(
      String(resigned.json()['message']),
      /spec\.signerName: Invalid value: "example\.com\/other": field is immutable/,
    );
  });
});
