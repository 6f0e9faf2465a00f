// Tests for schema-declared CEL types and values: escaping, SchemaDeclType, UnstructuredToVal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCelList, isCelMap } from '@bufbuild/cel';
import { formatType } from '../checker/types.js';
import { keyedListAdd, keyedListEquals } from './keyed-lists.js';
import { assignTypeNames, declTypeProvider } from './decl-type.js';
import { escapeName, unescapeName } from './escaping.js';
import { MAX_REQUEST_SIZE_BYTES, schemaDeclType } from './schema-decl-type.js';
import { InvalidCelDataError, parseDuration, toCelValue } from './values.js';

describe('property name escaping (pkg/cel/escaping.go)', () => {
  const cases: [string, string | undefined][] = [
    ['foo', 'foo'],
    ['in', '__in__'],
    ['namespace', '__namespace__'],
    ['a-b', 'a__dash__b'],
    ['a.b', 'a__dot__b'],
    ['a/b', 'a__slash__b'],
    ['a__b', 'a__underscores__b'],
    ['a___b', 'a__underscores___b'],
    ['1a', undefined],
    ['a b', undefined],
    ['', undefined],
  ];
  for (const [name, want] of cases) {
    it(`${name} → ${String(want)}`, () => {
      assert.equal(escapeName(name), want);
      if (want !== undefined) assert.equal(unescapeName(want), name);
    });
  }
  it('refuses escapes of reserved words inside a name', () =>
    assert.equal(unescapeName('x__in__'), undefined));
});

describe('schemaDeclType (pkg/cel/common/schemas.go)', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 10 },
          'x-y': { type: 'integer' },
          tags: { type: 'array', maxItems: 5, items: { type: 'string' } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          port: { 'x-kubernetes-int-or-string': true },
          raw: { type: 'string', format: 'byte' },
          ttl: { type: 'string', format: 'duration' },
          at: { type: 'string', format: 'date-time' },
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          anything: { 'x-kubernetes-preserve-unknown-fields': true },
          'bad key': { type: 'string' },
        },
      },
    },
  };

  it('declares objects, maps, lists and scalars with escaped field names', () => {
    const root = assignTypeNames(schemaDeclType(schema, true) ?? assert.fail(), 'selfType1');
    const spec = root.fields?.get('spec')?.type ?? assert.fail();
    assert.equal(formatType(spec.celType), 'selfType1.spec');
    const f = (n: string): string => formatType(spec.fields?.get(n)?.type.celType ?? assert.fail(n));
    assert.equal(f('name'), 'string');
    assert.equal(f('x__dash__y'), 'int');
    assert.equal(f('tags'), 'list(string)');
    assert.equal(f('labels'), 'map(string, string)');
    assert.equal(f('port'), 'dyn');
    assert.equal(f('raw'), 'bytes');
    assert.equal(f('ttl'), 'duration');
    assert.equal(f('at'), 'timestamp');
    assert.equal(f('ratio'), 'double');
    assert.equal(f('on'), 'bool');
    assert.equal(spec.fields?.has('anything'), false);
    assert.equal(spec.fields?.has('bad key'), false);
    // The resource root gains apiVersion, kind and metadata.name/generateName.
    assert.equal(
      formatType(root.fields?.get('metadata')?.type.celType ?? assert.fail()),
      'selfType1.metadata',
    );
    assert.equal(root.fields?.has('apiVersion'), true);
    const provider = declTypeProvider([root]);
    assert.equal(
      formatType(provider.findFieldType('selfType1.spec', 'tags') ?? assert.fail()),
      'list(string)',
    );
    assert.equal(provider.findFieldType('selfType1.spec', 'nope'), undefined);
  });

  it('bounds sizes by maxLength (×4 bytes), maxItems, or the request size', () => {
    const spec = schemaDeclType(schema, false)?.fields?.get('spec')?.type ?? assert.fail();
    const max = (n: string): bigint => spec.fields?.get(n)?.type.maxElements ?? assert.fail(n);
    assert.equal(max('name'), 40n);
    assert.equal(max('tags'), 5n);
    assert.equal(max('labels'), (MAX_REQUEST_SIZE_BYTES - 2n) / (2n + 6n));
    assert.equal(max('ttl'), 32n);
    assert.equal(max('at'), 32n);
    assert.equal(max('port'), MAX_REQUEST_SIZE_BYTES - 2n);
    // required name without default: 2 + len("name") + 2 + 4
    assert.equal(spec.minSerializedSize, 12n);
    const list = schemaDeclType({ type: 'array', items: { type: 'integer' } }, false) ?? assert.fail();
    assert.equal(list.maxElements, (MAX_REQUEST_SIZE_BYTES - 2n) / 2n);
  });
});

describe('toCelValue (pkg/cel/common/values.go)', () => {
  it('types values by the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        d: { type: 'number' },
        'a-b': { type: 'string' },
        p: { 'x-kubernetes-int-or-string': true },
        l: { type: 'array', items: { type: 'integer' } },
        m: { type: 'object', additionalProperties: { type: 'boolean' } },
        b: { type: 'string', format: 'byte' },
      },
    };
    const v = toCelValue(
      { n: 3, d: 2, 'a-b': 'x', p: 8080, l: [1, 2], m: { 'k-1': true }, b: 'aGk=', extra: 1 },
      schema,
    );
    assert.ok(isCelMap(v));
    assert.equal(v.get('n'), 3n);
    assert.equal(v.get('d'), 2);
    assert.equal(v.get('a__dash__b'), 'x');
    assert.equal(v.get('p'), 8080n);
    const l = v.get('l');
    assert.deepEqual(isCelList(l) ? [...l] : l, [1n, 2n]);
    const m = v.get('m');
    assert.deepEqual(isCelMap(m) ? [...m] : m, [['k-1', true]]);
    assert.deepEqual(v.get('b'), new Uint8Array([104, 105]));
    assert.equal(v.has('extra'), false);
  });

  it('converts durations and timestamps to protobuf well-known types', () => {
    const d = toCelValue('1h30m', { type: 'string', format: 'duration' });
    assert.ok(typeof d === 'object' && d !== null && '$typeName' in d);
    assert.equal(parseDuration('1.5s'), 1_500_000_000n);
    assert.equal(parseDuration('-2m'), -120_000_000_000n);
    assert.equal(parseDuration('1d'), 86_400_000_000_000n);
    assert.equal(parseDuration('x'), undefined);
    assert.equal(parseDuration('3 days'), 3n * 86_400_000_000_000n);
    assert.equal(parseDuration('1w2d'), 9n * 86_400_000_000_000n);
    assert.equal(parseDuration('10 minutes'), 600_000_000_000n);
    assert.equal(parseDuration('0'), 0n);
    const t = toCelValue('2023-01-02T03:04:05.5+01:00', { type: 'string', format: 'date-time' });
    assert.deepEqual(
      t !== null && typeof t === 'object' && 'seconds' in t ? [t.seconds, t.nanos] : undefined,
      [BigInt(Date.UTC(2023, 0, 2, 2, 4, 5) / 1000), 500_000_000],
    );
  });

  it('reads date-times as strfmt does', () => {
    const dt = { type: 'string', format: 'date-time' };
    assert.throws(() => toCelValue('2023-02-30T00:00:00Z', dt), InvalidCelDataError);
    assert.throws(() => toCelValue('2023-01-01 00:00:00Z', dt), InvalidCelDataError);
    const local = toCelValue('1970-01-02T00:00:00', dt);
    assert.equal(
      local !== null && typeof local === 'object' && 'seconds' in local ? local.seconds : 0n,
      86400n,
    );
  });

  it('refuses data that does not fit, with upstream messages', () => {
    assert.throws(() => toCelValue(null, { type: 'string' }), InvalidCelDataError);
    assert.equal(toCelValue(null, { type: 'string', nullable: true }), null);
    assert.throws(() => toCelValue('x', { type: 'integer' }), /invalid data, expected int, got string/);
    assert.throws(() => toCelValue(1.5, { type: 'integer' }), /expected int, got float64/);
  });
});

describe('set and map-list values (values.go unstructuredSetList, unstructuredMapList)', () => {
  const set = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } };
  const list = (xs: unknown[]) => toCelValue(xs, { type: 'array', items: { type: 'string' } });
  it('a set equals any ordering of its elements when on the left', () => {
    const s = toCelValue(['a', 'b', 'c'], set);
    assert.equal(keyedListEquals(s, list(['c', 'b', 'a'])), true);
    assert.equal(keyedListEquals(s, list(['c', 'b'])), false);
    assert.equal(keyedListEquals(list(['c', 'b', 'a']), s), undefined);
  });
  it('set + list appends only new elements and stays a set', () => {
    const sum = keyedListAdd(toCelValue(['a', 'b', 'c'], set), list(['c', 'd']));
    assert.deepEqual(sum === undefined ? undefined : [...sum], ['a', 'b', 'c', 'd']);
    assert.equal(keyedListEquals(sum, list(['d', 'c', 'b', 'a'])), true);
  });
  it('an int set does not match doubles (Go map keys)', () => {
    const ints = toCelValue([1, 2], {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'integer' },
    });
    assert.equal(
      keyedListEquals(ints, toCelValue([2, 1], { type: 'array', items: { type: 'integer' } })),
      true,
    );
    assert.equal(
      keyedListEquals(ints, toCelValue([2.5, 1], { type: 'array', items: { type: 'number' } })),
      false,
    );
  });
  const mapList = {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['k'],
    items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string' } } },
  };
  const a = toCelValue(
    [
      { k: 'a', v: '1' },
      { k: 'b', v: '2' },
    ],
    mapList,
  );
  const b = toCelValue(
    [
      { k: 'b', v: '2' },
      { k: 'a', v: '1' },
    ],
    mapList,
  );
  const c = toCelValue(
    [
      { k: 'b', v: '3' },
      { k: 'a', v: '1' },
    ],
    mapList,
  );
  it('map-lists match elements by key', () => {
    assert.equal(keyedListEquals(a, b), true);
    assert.equal(keyedListEquals(a, c), false);
  });
  it('map-list + list replaces elements with the same key', () => {
    assert.equal(keyedListEquals(keyedListAdd(a, c), c), true);
  });
});
