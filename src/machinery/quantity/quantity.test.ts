import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  QuantityParseError,
  canonicalForm,
  canonicalQuantityString,
  compareQuantity,
  parseQuantity,
  parseQuantityJSON,
  quantityErrors,
  quantityMilliValue,
  quantityValue,
} from './quantity.js';
import type { Quantity, QuantityFormat } from './quantity.js';
import { splitQuantityString } from './parse.js';

const dec = (mantissa: bigint, exponent: number, format: QuantityFormat): Quantity => ({
  mantissa,
  exponent,
  format,
});
const s = (x: string): string => canonicalQuantityString(parseQuantity(x));

describe('splitQuantityString (upstream TestParseQuantityString)', () => {
  const cases: [string, boolean, string, string, string, string][] = [
    ['0.025Ti', true, '0.025', '0', '025', 'Ti'],
    ['1.025Ti', true, '1.025', '1', '025', 'Ti'],
    ['-1.025Ti', false, '-1.025', '1', '025', 'Ti'],
    ['.', true, '.', '0', '', ''],
    ['-.', false, '-.', '0', '', ''],
    ['1E-3', true, '1', '1', '', 'E-3'],
  ];
  for (const [input, positive, value, num, denom, suffix] of cases) {
    it(input, () => assert.deepEqual(splitQuantityString(input), { positive, value, num, denom, suffix }));
  }
});

describe('parseQuantity (upstream TestQuantityParse table)', () => {
  const max = 2n ** 63n - 1n;
  const table: [string, Quantity][] = [
    ['0', dec(0n, 0, 'DecimalSI')],
    ['0n', dec(0n, 0, 'DecimalSI')],
    ['0Ki', dec(0n, 0, 'BinarySI')],
    ['0M', dec(0n, 0, 'DecimalSI')],
    ['0Ti', dec(0n, 0, 'BinarySI')],
    ['1', dec(1n, 0, 'DecimalSI')],
    ['1Ki', dec(1024n, 0, 'BinarySI')],
    ['7Mi', dec(7n * 1024n ** 2n, 0, 'BinarySI')],
    ['6Gi', dec(6n * 1024n ** 3n, 0, 'BinarySI')],
    ['4Pi', dec(4n * 1024n ** 5n, 0, 'BinarySI')],
    ['3Ei', dec(3n * 1024n ** 6n, 0, 'BinarySI')],
    ['100Ti', dec(100n * 1024n ** 4n, 0, 'BinarySI')],
    ['5n', dec(5n, -9, 'DecimalSI')],
    ['4u', dec(4n, -6, 'DecimalSI')],
    ['3m', dec(3n, -3, 'DecimalSI')],
    ['50k', dec(5n, 4, 'DecimalSI')],
    ['300T', dec(3n, 14, 'DecimalSI')],
    ['2P', dec(2n, 15, 'DecimalSI')],
    ['1E', dec(1n, 18, 'DecimalSI')],
    ['1E-3', dec(1n, -3, 'DecimalExponent')],
    ['1e3', dec(1n, 3, 'DecimalExponent')],
    ['1E18', dec(1n, 18, 'DecimalExponent')],
    ['1e14', dec(1n, 14, 'DecimalExponent')],
    ['100.035k', dec(100035n, 0, 'DecimalSI')],
    ['0.001', dec(1n, -3, 'DecimalSI')],
    ['0.0005k', dec(5n, -1, 'DecimalSI')],
    ['0.00050k', dec(5n, -1, 'DecimalSI')],
    ['0.50000', dec(5n, -1, 'DecimalSI')],
    ['0.5e-2', dec(5n, -3, 'DecimalExponent')],
    ['10.035M', dec(10035n, 3, 'DecimalSI')],
    ['1.3E+6', dec(13n, 5, 'DecimalExponent')],
    ['1.7E18', dec(17n, 17, 'DecimalExponent')],
    ['6.987654321G', dec(6987654321n, 0, 'DecimalSI')],
    ['1.01E', dec(101n, 16, 'DecimalSI')],
    ['3.001n', dec(4n, -9, 'DecimalSI')],
    ['1.1E-9', dec(2n, -9, 'DecimalExponent')],
    ['0.0000000001', dec(1n, -9, 'DecimalSI')],
    ['0.5e-9', dec(1n, -9, 'DecimalExponent')],
    ['0.9n', dec(1n, -9, 'DecimalSI')],
    ['0.00000012345', dec(124n, -9, 'DecimalSI')],
    ['9Ei', dec(max, 0, 'BinarySI')],
    ['9223372036854775807Ki', dec(max, 0, 'BinarySI')],
    ['12E', dec(12n, 18, 'DecimalSI')],
    ['100.035Ki', dec(10243584n, -2, 'BinarySI')],
    ['0.5Mi', dec(524288n, 0, 'BinarySI')],
    ['0.05Gi', dec(536870912n, -1, 'BinarySI')],
    ['0.025Ti', dec(274877906944n, -1, 'BinarySI')],
    ['0.000000000001Ki', dec(2n, -9, 'DecimalSI')],
    ['.001', dec(1n, -3, 'DecimalSI')],
    ['.0001k', dec(100n, -3, 'DecimalSI')],
    ['1.', dec(1n, 0, 'DecimalSI')],
    ['1.G', dec(1n, 9, 'DecimalSI')],
  ];
  for (const [input, expect] of table) {
    it(input, () => {
      for (const [prefix, sign] of [
        ['', 1n],
        ['+', 1n],
        ['-', -1n],
      ] as const) {
        const got = parseQuantity(prefix + input);
        const want = { ...expect, mantissa: expect.mantissa * sign };
        assert.equal(compareQuantity(got, want), 0, `${prefix}${input}: ${canonicalForm(got)}`);
        assert.equal(got.format, expect.format, `${prefix}${input}`);
      }
    });
  }

  it('rejects upstream invalid inputs with upstream messages', () => {
    for (const bad of ['', '1.1.M', '1+1.0M', 'aoeu', ' 1', '1 ', '0.1am']) {
      assert.throws(() => parseQuantity(bad), new QuantityParseError(quantityErrors.formatWrong), bad);
    }
    for (const bad of ['0.1mi', '.5i', '1i', '-3.01i', '1e', '-3.01e-']) {
      assert.throws(() => parseQuantity(bad), new QuantityParseError(quantityErrors.suffix), bad);
    }
    assert.equal(
      quantityErrors.formatWrong,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });
});

describe('canonical form (upstream TestQuantityString)', () => {
  const table: [Quantity, string, string][] = [
    [dec(1024n ** 3n, 0, 'BinarySI'), '1Gi', '1024Mi'],
    [dec(300n * 1024n ** 2n, 0, 'BinarySI'), '300Mi', '307200Ki'],
    [dec(6n * 1024n, 0, 'BinarySI'), '6Ki', ''],
    [dec(1001n * 1024n ** 3n, 0, 'BinarySI'), '1001Gi', '1025024Mi'],
    [dec(1024n ** 4n, 0, 'BinarySI'), '1Ti', '1024Gi'],
    [dec(5n, 0, 'BinarySI'), '5', '5000m'],
    [dec(500n, -3, 'BinarySI'), '500m', '0.5'],
    [dec(1n, 9, 'DecimalSI'), '1G', '1000M'],
    [dec(1000n, 6, 'DecimalSI'), '1G', '0.001T'],
    [dec(1000000n, 3, 'DecimalSI'), '1G', ''],
    [dec(1000000000n, 0, 'DecimalSI'), '1G', ''],
    [dec(1n, -3, 'DecimalSI'), '1m', '1000u'],
    [dec(80n, -3, 'DecimalSI'), '80m', ''],
    [dec(1080n, -3, 'DecimalSI'), '1080m', '1.08'],
    [dec(108n, -2, 'DecimalSI'), '1080m', '1080000000n'],
    [dec(10800n, -4, 'DecimalSI'), '1080m', ''],
    [dec(300n, 6, 'DecimalSI'), '300M', ''],
    [dec(1n, 12, 'DecimalSI'), '1T', ''],
    [dec(1234567n, 6, 'DecimalSI'), '1234567M', ''],
    [dec(1234567n, -3, 'BinarySI'), '1234567m', ''],
    [dec(3n, 3, 'DecimalSI'), '3k', ''],
    [dec(1025n, 0, 'BinarySI'), '1025', ''],
    [dec(0n, 0, 'DecimalSI'), '0', ''],
    [dec(0n, 0, 'BinarySI'), '0', ''],
    [dec(1n, 9, 'DecimalExponent'), '1e9', '.001e12'],
    [dec(1n, -3, 'DecimalExponent'), '1e-3', '0.001e0'],
    [dec(1n, -9, 'DecimalExponent'), '1e-9', '1000e-12'],
    [dec(80n, -3, 'DecimalExponent'), '80e-3', ''],
    [dec(300n, 6, 'DecimalExponent'), '300e6', ''],
    [dec(1n, 3, 'DecimalExponent'), '1e3', ''],
    [dec(0n, 0, 'DecimalExponent'), '0', '00'],
    [dec(1n, -9, 'DecimalSI'), '1n', ''],
    [dec(10800n, -10, 'DecimalSI'), '1080n', ''],
    [dec(1080n, -6, 'DecimalSI'), '1080u', ''],
  ];
  for (const [q, expect, alternate] of table) {
    it(`${expect}${alternate === '' ? '' : ` / ${alternate}`}`, () => {
      assert.equal(canonicalQuantityString(q), expect);
      const parsed = parseQuantity(expect);
      assert.equal(parsed.cached, expect, 'canonical input text is kept');
      if (alternate !== '') {
        const alt = parseQuantity(alternate);
        assert.equal(alt.cached, undefined, 'non-canonical input is not kept');
        assert.equal(canonicalQuantityString(alt), expect);
      }
      if (q.mantissa !== 0n)
        assert.equal(canonicalQuantityString({ ...q, mantissa: -q.mantissa }), `-${expect}`);
    });
  }
});

describe('parse then emit (upstream TestQuantityParseEmit and common cases)', () => {
  const table: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['100Mi', '100Mi'],
    ['2000000000', '2G'],
    ['1e3', '1e3'],
    ['1.5Gi', '1536Mi'],
    ['1.5', '1500m'],
    ['250m', '250m'],
    ['128974848', '128974848'],
    ['129e6', '129e6'],
    ['129M', '129M'],
    ['123Mi', '123Mi'],
    ['0.1', '100m'],
    ['1500m', '1500m'],
    ['2000m', '2'],
    ['512Ki', '512Ki'],
    ['1048576', '1048576'],
  ];
  for (const [input, expect] of table) {
    it(`${input} -> ${expect}`, () => {
      assert.equal(s(input), expect);
      if (expect !== '0') assert.equal(s(`-${input}`), `-${expect}`);
    });
  }
  it('keeps canonical-looking input verbatim as upstream does', () => {
    assert.equal(s('+1'), '+1');
    assert.equal(s('01'), '01');
    assert.equal(s('100.035k'), '100.035k');
  });
});

describe('compare and values', () => {
  it('compares across formats and scales', () => {
    assert.equal(compareQuantity(parseQuantity('1Gi'), parseQuantity('1024Mi')), 0);
    assert.equal(compareQuantity(parseQuantity('1G'), parseQuantity('1Gi')), -1);
    assert.equal(compareQuantity(parseQuantity('1'), parseQuantity('999m')), 1);
    assert.equal(compareQuantity(parseQuantity('-1'), parseQuantity('1m')), -1);
    assert.equal(compareQuantity(parseQuantity('-2'), parseQuantity('-1')), -1);
    assert.equal(compareQuantity(parseQuantity('1e1000'), parseQuantity('1e-1000')), 1);
    assert.equal(compareQuantity(parseQuantity('0'), parseQuantity('0Ki')), 0);
  });
  it('Value and MilliValue round up', () => {
    assert.equal(quantityValue(parseQuantity('1500m')), 2n);
    assert.equal(quantityValue(parseQuantity('1Ki')), 1024n);
    assert.equal(quantityMilliValue(parseQuantity('1')), 1000n);
    assert.equal(quantityMilliValue(parseQuantity('1.5n')), 1n);
    assert.equal(quantityMilliValue(parseQuantity('250m')), 250n);
    assert.equal(quantityValue(parseQuantity('-1500m')), -2n);
  });
  it('reads JSON values like UnmarshalJSON', () => {
    assert.equal(canonicalQuantityString(parseQuantityJSON(' 1 ')!), '1');
    assert.equal(canonicalQuantityString(parseQuantityJSON(0.5)!), '500m');
    assert.equal(parseQuantityJSON(null), undefined);
  });
});
