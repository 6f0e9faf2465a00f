import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../machinery/object.js';
import { newestDefaultClass } from './newest-default-class.js';

const cls = (name: string, creationTimestamp: string, isDefault = true): KubeObject => ({
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name, creationTimestamp, labels: { d: String(isDefault) } },
});
const isDefault = (c: KubeObject): boolean => c.metadata.labels?.['d'] === 'true';

test('newest default wins, ties go to the lowest name, non-defaults never', () => {
  assert.equal(newestDefaultClass([], isDefault), undefined);
  assert.equal(newestDefaultClass([cls('a', '2023-01-01T00:00:00Z', false)], isDefault), undefined);
  const pick = newestDefaultClass(
    [
      cls('b', '2023-01-02T00:00:00Z'),
      cls('c', '2023-01-02T00:00:00Z'),
      cls('a', '2023-01-01T00:00:00Z'),
      cls('z', '2024-01-01T00:00:00Z', false),
    ],
    isDefault,
  );
  assert.equal(pick?.metadata.name, 'b');
});
