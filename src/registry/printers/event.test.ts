import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { eventTable } from './event.js';

const now = new Date('2024-05-01T12:00:00Z');
const ago = (sec: number): string => new Date(now.getTime() - sec * 1000).toISOString();

function event(fields: JsonObject): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'p.17a', namespace: 'default', creationTimestamp: ago(300) },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', fieldPath: 'spec.containers{app}' },
    reason: 'Pulled',
    message: '  Container image "nginx" already present on machine\n',
    type: 'Normal',
    ...fields,
  };
}

describe('eventTable', () => {
  it('has the v1.27 columns in cell order', () => {
    assert.deepEqual(
      eventTable.columns.map((c) => `${c.name}:${c.priority}:${c.format}`),
      [
        'Last Seen:0:',
        'Type:0:',
        'Reason:0:',
        'Object:0:',
        'Subobject:1:',
        'Source:1:',
        'Message:0:',
        'First Seen:1:',
        'Count:1:',
        'Name:1:name',
      ],
    );
  });

  it('prints a legacy core/v1 event', () => {
    const e = event({
      firstTimestamp: ago(300),
      lastTimestamp: ago(65),
      count: 3,
      source: { component: 'kubelet', host: 'n1' },
    });
    assert.deepEqual(eventTable.cells(e, now), [
      '65s',
      'Normal',
      'Pulled',
      'pod/p',
      'spec.containers{app}',
      'kubelet, n1',
      'Container image "nginx" already present on machine',
      '5m',
      3,
      'p.17a',
    ]);
  });

  it('falls back to eventTime, count 1 and series data', () => {
    const single = event({ eventTime: ago(30), source: { component: 'scheduler' } });
    const cells = eventTable.cells(single, now);
    assert.deepEqual([cells[0], cells[5], cells[7], cells[8]], ['30s', 'scheduler', '30s', 1]);
    const series = event({ eventTime: ago(600), series: { count: 7, lastObservedTime: ago(10) } });
    const s = eventTable.cells(series, now);
    assert.deepEqual([s[0], s[7], s[8]], ['10s', '10m', 7]);
    const none = event({ involvedObject: { kind: 'Node' } });
    assert.deepEqual(eventTable.cells(none, now).slice(0, 4), ['<unknown>', 'Normal', 'Pulled', 'node']);
  });
});
