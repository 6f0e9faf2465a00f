/**
 * Watch events and their wire form: one JSON object per line (`{"type":…,"object":…}`), as the
 * API server streams them. Lines may arrive split across chunks, even inside a UTF-8 sequence.
 */
import { isJsonObject } from '../util/json.js';
import type { JsonObject } from '../util/json.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: JsonObject;
}

const eventTypes: ReadonlySet<string> = new Set<WatchEventType>([
  'ADDED',
  'MODIFIED',
  'DELETED',
  'BOOKMARK',
  'ERROR',
]);

function isEventType(t: string): t is WatchEventType {
  return eventTypes.has(t);
}

/** Decodes one line; throws on anything that is not a watch event. */
export function parseWatchEvent(line: string): WatchEvent {
  const parsed: unknown = JSON.parse(line);
  if (!isJsonObject(parsed)) throw new Error('watch: an event line is not a JSON object');
  const type = parsed['type'];
  const object = parsed['object'];
  if (typeof type !== 'string' || !isEventType(type)) {
    throw new Error(`watch: unknown event type ${JSON.stringify(type)}`);
  }
  if (!isJsonObject(object)) throw new Error(`watch: ${type} event without an object`);
  return { type, object };
}

/** The events of a byte stream of newline-delimited watch events. */
export async function* decodeWatchEvents(
  chunks: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<WatchEvent> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new Error('watch: the stream yielded a non-byte chunk');
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl: number;
    while ((nl = pending.indexOf('\n', start)) >= 0) {
      const line = pending.slice(start, nl);
      start = nl + 1;
      if (line.trim() !== '') yield parseWatchEvent(line);
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield parseWatchEvent(pending);
}
