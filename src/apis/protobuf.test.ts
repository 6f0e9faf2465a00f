/**
 * The protobuf wire form of built-in kinds: byte-for-byte against answers recorded from a real
 * kube-apiserver (where ../shared/reference is present), and round trips of every kind in the
 * catalogue fixtures.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { isJsonObject } from '../util/json.js';
import type { JsonObject, JsonValue } from '../util/json.js';
import { builtinProtobuf } from './protobuf.js';

const refDir = new URL('../../../shared/reference/kube-apiserver-v1.28.7/protobuf/', import.meta.url)
  .pathname;
const skipRef = existsSync(refDir) ? false : `reference answers not present at ${refDir}`;
const fixtures = new URL('../../test/fixtures/catalogue/', import.meta.url).pathname;

function read(name: string): Buffer {
  return readFileSync(join(refDir, name));
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.yaml') ? [p] : [];
  });
}

/** Every leaf of `want` is in `got` (Go drops zero values of omitempty fields, so those may be absent). */
function assertContains(got: JsonValue | undefined, want: JsonValue, path: string): void {
  if (isJsonObject(want)) {
    assert.ok(isJsonObject(got), `${path}: want an object, got ${JSON.stringify(got)}`);
    for (const [k, v] of Object.entries(want)) assertContains(got[k], v, `${path}.${k}`);
  } else if (Array.isArray(want)) {
    if (want.length === 0 && (got === undefined || got === null)) return;
    assert.ok(Array.isArray(got), `${path}: want an array, got ${JSON.stringify(got)}`);
    assert.equal(got.length, want.length, `${path}: length`);
    want.forEach((v, i) => assertContains(got[i], v, `${path}[${i}]`));
  } else if (got === undefined && (want === '' || want === 0 || want === false || want === null)) {
    return;
  } else {
    assert.deepEqual(got, want, path);
  }
}

describe('protobuf wire format of built-in kinds', () => {
  for (const name of [
    'configmap',
    'secret',
    'pod',
    'deployment',
    'service',
    'configmap-list',
    'status-404',
  ]) {
    it(`${name}: encodes byte for byte as kube-apiserver and decodes to its JSON`, { skip: skipRef }, () => {
      const json = JSON.parse(read(`${name}.json`).toString('utf8')) as JsonObject;
      const pb = read(`${name}.pb`);
      assert.equal(Buffer.from(builtinProtobuf.encode(json)).toString('hex'), pb.toString('hex'));
      assert.equal(JSON.stringify(builtinProtobuf.decode(pb).object), JSON.stringify(json));
    });
  }

  it('PartialObjectMetadata and a watch stream match the recorded bytes', { skip: skipRef }, () => {
    const cm = JSON.parse(read('configmap.json').toString('utf8')) as JsonObject;
    const pom = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm['metadata']! };
    assert.ok(Buffer.from(builtinProtobuf.encode(pom)).equals(read('configmap-pom.pb')));
    const events = read('configmap-watch.json-stream')
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; object: JsonObject });
    const frames = Buffer.concat(events.map((e) => builtinProtobuf.encodeWatchEvent(e.type, e.object)));
    assert.ok(frames.equals(read('configmap-watch.pb-stream')));
  });

  it('every kind of the catalogue fixtures round-trips', () => {
    let kinds = 0;
    for (const file of walk(fixtures)) {
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
        const obj = doc.toJS() as JsonValue;
        if (!isJsonObject(obj) || typeof obj['kind'] !== 'string') continue;
        const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
        assert.ok(
          builtinProtobuf.supports(apiVersion, obj['kind']),
          `${apiVersion} ${obj['kind']} has a message`,
        );
        const bytes = builtinProtobuf.encode(obj);
        const back = builtinProtobuf.decode(bytes).object;
        assertContains(back, obj, `${file}:${obj['kind']}`);
        assert.ok(
          Buffer.from(builtinProtobuf.encode(back)).equals(Buffer.from(bytes)),
          `${obj['kind']}: stable bytes`,
        );
        kinds++;
      }
    }
    assert.ok(kinds >= 57, `only ${kinds} fixtures`);
  });
});
