import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webhookConfigurationTable } from './webhookconfiguration.js';

const now = new Date('2024-05-01T12:00:00Z');

test('webhook configurations: NAME, WEBHOOKS (a count), AGE', () => {
  assert.deepEqual(
    webhookConfigurationTable.columns.map((c) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['Webhooks', 'integer', '', 0],
      ['Age', 'string', '', 0],
    ],
  );
  const obj = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'hooks', creationTimestamp: '2024-05-01T11:00:00Z' },
    webhooks: [{ name: 'a.example.com' }, { name: 'b.example.com' }],
  };
  assert.deepEqual(webhookConfigurationTable.cells(obj, now), ['hooks', 2, '60m']);
  const none = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata };
  assert.deepEqual(webhookConfigurationTable.cells(none, now).slice(1, 2), [0]);
});
