import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeWatchEvents, parseWatchEvent } from './watch-event.js';
import type { WatchEvent } from './watch-event.js';

async function decode(chunks: Iterable<Uint8Array>): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const ev of decodeWatchEvents(chunks)) out.push(ev);
  return out;
}

test('events split across chunks, even inside a UTF-8 sequence, decode whole', async () => {
  const text =
    '{"type":"ADDED","object":{"metadata":{"name":"caf\u00e9"}}}\n\n' +
    '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}\n' +
    '{"type":"DELETED","object":{"metadata":{"name":"\u{1F600}"}}}';
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
  assert.deepEqual(await decode(chunks), [
    { type: 'ADDED', object: { metadata: { name: 'caf\u00e9' } } },
    { type: 'BOOKMARK', object: { metadata: { resourceVersion: '7' } } },
    { type: 'DELETED', object: { metadata: { name: '\u{1F600}' } } },
  ]);
});

test('anything but a watch event is an error', () => {
  assert.throws(() => parseWatchEvent('[]'), /not a JSON object/);
  assert.throws(() => parseWatchEvent('{"type":"SOMETHING","object":{}}'), /unknown event type/);
  assert.throws(() => parseWatchEvent('{"type":"ADDED"}'), /without an object/);
  assert.throws(() => parseWatchEvent('{"type":'), SyntaxError);
});
