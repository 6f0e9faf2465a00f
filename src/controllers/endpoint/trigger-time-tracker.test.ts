import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { rfc3339Nano } from './pod-endpoints.js';
import { TriggerTimeTracker } from './trigger-time-tracker.js';

const svc: JsonObject = { metadata: { name: 's', creationTimestamp: '2026-01-01T00:00:00Z' } };
const pod = (name: string, t: string): JsonObject => ({
  metadata: { name },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }] },
});

describe('TriggerTimeTracker (trigger_time_tracker.go)', () => {
  it('is the creation time first, then the earliest changed pod time, then nothing', () => {
    const t = new TriggerTimeTracker();
    const sync = (pods: JsonObject[]): number | undefined => {
      const r = t.compute('ns/s', svc, pods);
      r.commit();
      return r.time;
    };
    assert.equal(sync([pod('a', '2026-01-01T00:01:00Z')]), Date.parse('2026-01-01T00:00:00Z'));
    const pods = [pod('a', '2026-01-01T00:03:00Z'), pod('b', '2026-01-01T00:02:00Z')];
    // A sync that failed does not commit: the retry sees the same trigger time.
    assert.equal(t.compute('ns/s', svc, pods).time, Date.parse('2026-01-01T00:02:00Z'));
    assert.equal(sync(pods), Date.parse('2026-01-01T00:02:00Z'));
    assert.equal(sync(pods), undefined);
  });
  it('formats as Go RFC3339Nano', () => {
    assert.equal(rfc3339Nano(Date.parse('2026-01-01T00:00:00.000Z')), '2026-01-01T00:00:00Z');
    assert.equal(rfc3339Nano(Date.parse('2026-01-01T00:00:00.120Z')), '2026-01-01T00:00:00.12Z');
  });
});
