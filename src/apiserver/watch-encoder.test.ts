import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WatchEncoder } from './watch-encoder.js';

test('#28 watch encoder: an event is encoded once per key while its watchers take it', () => {
  const encoder = new WatchEncoder({ generationMs: 60_000 });
  const event = {};
  let renders = 0;
  const render = (): string => `{"n":${++renders}}\n`;
  const first = encoder.encode(event, 'ADDED v1', render);
  assert.equal(encoder.encode(event, 'ADDED v1', render), first);
  assert.equal(encoder.cached(event, 'ADDED v1'), first);
  assert.equal(renders, 1);
  // Another key (format, version or representation) is its own encoding.
  assert.equal(encoder.cached(event, 'ADDED v1 protobuf'), undefined);
  const proto = encoder.encodeBytes(event, 'ADDED v1 protobuf', () => new Uint8Array([1, 2, 3]));
  assert.deepEqual([...proto], [1, 2, 3]);
  assert.equal(encoder.encodings, 2);
});

test('#28 watch encoder: bytes are found for one to two generations, then made again', () => {
  let now = 0;
  const encoder = new WatchEncoder({ generationMs: 1000, now: () => now });
  const event = {};
  let renders = 0;
  const render = (): string => `{"n":${++renders}}\n`;
  const first = encoder.encode(event, 'MODIFIED v1', render);
  // Later in the same generation, and in the next one (the bytes moved to the previous).
  now = 900;
  assert.equal(encoder.cached(event, 'MODIFIED v1'), first);
  now = 1500;
  assert.equal(encoder.cached(event, 'MODIFIED v1'), first);
  // The generation that began at 1,500 is over at 2,500: the bytes made before it are gone.
  now = 2600;
  assert.equal(encoder.cached(event, 'MODIFIED v1'), undefined);
  const again = encoder.encode(event, 'MODIFIED v1', render);
  assert.equal(again.toString(), '{"n":2}\n');
  // Two generations with no lookup at all drop both at once.
  now = 10_000;
  assert.equal(encoder.cached(event, 'MODIFIED v1'), undefined);
  assert.equal(encoder.encodings, 2);
});

test('#28 watch encoder: with no watcher asking, the kept bytes are let go while their object lives', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const encoder = new WatchEncoder({ generationMs: 20 });
  // The object stays (as the watch cache keeps a current object); only the encoder's timer can
  // drop its bytes, as no lookup comes to start a new generation.
  const event = {};
  let collected = false;
  const registry = new FinalizationRegistry<string>(() => (collected = true));
  registry.register(
    encoder.encode(event, 'ADDED v1', () => 'x'.repeat(100_000)),
    'bytes',
  );
  const deadline = Date.now() + 10_000;
  while (!collected && Date.now() < deadline) {
    await sleep(20);
    gc();
    await sleep(0);
  }
  assert.ok(collected, 'the bytes were never collected');
  assert.ok(event);
});
