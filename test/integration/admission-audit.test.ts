/**
 * Integration (AM-17): admission plugins annotate the audit event of a real request —
 * PodSecurity's `enforce-policy` and `audit-violations`, as kube-apiserver v1.27 writes them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const policyYaml = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    resources: [{ group: "", resources: ["pods"] }]
  - level: None
`;

interface AuditEvent {
  auditID: string;
  stage: string;
  annotations?: Record<string, string>;
}

describe('admission annotations in the audit log (AM-17)', () => {
  let dir: string;
  let logPath: string;
  let s: TestServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'admission-audit-'));
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, policyYaml);
    logPath = join(dir, 'audit.log');
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      auditFlags: {
        policyFile,
        log: { path: logPath, maxAge: 0, maxBackups: 0, maxSize: 0, mode: 'blocking', bufferSize: 1000 },
      },
    });
  });
  after(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const eventOf = (id: string): Promise<AuditEvent> =>
    waitFor(`the audit event of ${id}`, () => {
      let text = '';
      try {
        text = readFileSync(logPath, 'utf8');
      } catch {
        return undefined;
      }
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as AuditEvent)
        .find((e) => e.auditID === id && e.stage === 'ResponseComplete');
    });

  it('PodSecurity records the enforced policy and what the audit level would refuse', async () => {
    const ns = await s.request('POST', '/api/v1/namespaces', {
      body: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'audited',
          labels: {
            'pod-security.kubernetes.io/enforce': 'baseline',
            'pod-security.kubernetes.io/audit': 'restricted',
            'pod-security.kubernetes.io/warn': 'baseline',
          },
        },
      },
    });
    assert.equal(ns.status, 201, ns.text);
    const created = await waitFor('the labels to reach the cache', async () => {
      const r = await s.request('POST', '/api/v1/namespaces/audited/pods?dryRun=All', {
        headers: { 'audit-id': `probe-${Date.now()}` },
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p' },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      });
      return r.status === 201 ? r : undefined;
    });
    const id = created.headers['audit-id'] as string;
    const e = await eventOf(id);
    assert.equal(e.annotations?.['pod-security.kubernetes.io/enforce-policy'], 'baseline:latest');
    assert.equal(
      e.annotations?.['pod-security.kubernetes.io/audit-violations'],
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    // baseline warns about nothing here.
    assert.deepEqual(created.warnings, []);
  });
});
