/**
 * `kubectl get events`: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE; wide: SUBOBJECT, SOURCE,
 * FIRST SEEN, COUNT, NAME (in that cell order, as the server sends them).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { parseTimestamp, translateTimestampSince } from './age.js';
import { column } from './columns.js';
import { numberAt, objectAt, stringAt } from './read.js';

const wide = { priority: 1 } as const;

/** "component" or "component, host" from the legacy source field. */
function eventSource(event: unknown): string {
  const component = stringAt(event, 'source', 'component');
  const host = stringAt(event, 'source', 'host');
  return host === '' ? component : `${component}, ${host}`;
}

/** `kind/name` of the involved object, lower-cased kind; just the kind when it has no name. */
function involvedObject(event: unknown): string {
  const kind = stringAt(event, 'involvedObject', 'kind').toLowerCase();
  const name = stringAt(event, 'involvedObject', 'name');
  return name === '' ? kind : `${kind}/${name}`;
}

export const eventTable: TableConvertor = {
  columns: [
    column('Last Seen', 'string', 'Time since the event was last observed.'),
    column('Type', 'string', 'Event type: Normal or Warning.'),
    column('Reason', 'string', 'Short machine-readable reason for the event.'),
    column('Object', 'string', 'The object the event is about.'),
    column('Subobject', 'string', 'Field path within the object, such as a container.', wide),
    column('Source', 'string', 'Component (and host) that reported the event.', wide),
    column('Message', 'string', 'Human-readable description of the event.'),
    column('First Seen', 'string', 'Time since the event was first observed.', wide),
    column('Count', 'string', 'How many times the event has occurred.', wide),
    column('Name', 'string', 'Name of the event object.', { ...wide, format: 'name' }),
  ],
  cells(obj, now) {
    let firstSeen = translateTimestampSince(obj['firstTimestamp'], now);
    if (parseTimestamp(obj['firstTimestamp']) === undefined) {
      firstSeen = translateTimestampSince(obj['eventTime'], now);
    }
    let lastSeen = translateTimestampSince(obj['lastTimestamp'], now);
    if (parseTimestamp(obj['lastTimestamp']) === undefined) lastSeen = firstSeen;

    let count = numberAt(obj, 'count');
    const series = objectAt(obj, 'series');
    if (series !== undefined) {
      lastSeen = translateTimestampSince(series['lastObservedTime'], now);
      count = numberAt(series, 'count');
    } else if (count === 0) {
      count = 1;
    }

    return [
      lastSeen,
      stringAt(obj, 'type'),
      stringAt(obj, 'reason'),
      involvedObject(obj),
      stringAt(obj, 'involvedObject', 'fieldPath'),
      eventSource(obj),
      stringAt(obj, 'message').trim(),
      firstSeen,
      count,
      stringAt(obj, 'metadata', 'name'),
    ];
  },
};
