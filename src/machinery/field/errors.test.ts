import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FieldError,
  FieldPath,
  fieldErrors,
  formatValue,
  goFloat,
  goQuote,
  goRendered,
  omitValue,
} from './errors.js';

describe('formatValue renders bad values as field.Error.ErrorBody does', () => {
  it('quotes strings with %q and prints nil as "null"', () => {
    assert.equal(formatValue('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(formatValue(null), '"null"');
    assert.equal(formatValue(undefined), '"null"');
  });

  it('prints integers, floats and booleans with %v', () => {
    assert.equal(formatValue(-3), '-3');
    assert.equal(formatValue(true), 'true');
    assert.equal(formatValue(0.5), '0.5');
    assert.equal(goFloat(1e6), '1e+06');
    assert.equal(goFloat(1234567.5), '1.2345675e+06');
    assert.equal(goFloat(123456.5), '123456.5');
    assert.equal(goFloat(0.00001), '1e-05');
    assert.equal(goFloat(0.0001), '0.0001');
    assert.equal(goFloat(NaN), 'NaN');
  });

  it('prints slices and string maps with %#v', () => {
    assert.equal(formatValue(['a', 'b']), '[]string{"a", "b"}');
    assert.equal(formatValue([]), '[]string{}');
    assert.equal(formatValue([1, 2]), '[]int32{1, 2}');
    assert.equal(formatValue({ b: '2', a: '1' }), 'map[string]string{"a":"1", "b":"2"}');
    assert.equal(formatValue({}), 'map[string]string{}');
  });

  it('prints pre-rendered Go values as they are', () => {
    assert.equal(formatValue(goRendered('core.Toleration{Key:"k"}')), 'core.Toleration{Key:"k"}');
  });
});

describe('goQuote is strconv.Quote', () => {
  it('escapes control and non-printable runes as Go does', () => {
    assert.equal(goQuote('a\tb\nc\x01\x7f'), '"a\\tb\\nc\\x01\\x7f"');
    assert.equal(goQuote('\u00a0é日本'), '"\\u00a0é日本"');
    assert.equal(goQuote('\u2028'), '"\\u2028"');
    assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
    assert.equal(goQuote('😀'), '"😀"');
  });
});

describe('FieldError.body', () => {
  const p = FieldPath.root('spec').child('x');
  it('omits the value for Required, Forbidden, TooLong and omitted values', () => {
    assert.equal(fieldErrors.required(p).body(), 'Required value');
    assert.equal(fieldErrors.forbidden(p, 'no').body(), 'Forbidden: no');
    assert.equal(fieldErrors.tooLong(p, 'xxxx', 3).body(), 'Too long: must have at most 3 bytes');
    assert.equal(new FieldError('FieldValueInvalid', p, omitValue, 'd').body(), 'Invalid value: d');
  });
  it('prints the value for the others', () => {
    assert.equal(
      fieldErrors.invalid(p, ['a'], 'bad').toString(),
      'spec.x: Invalid value: []string{"a"}: bad',
    );
    assert.equal(
      fieldErrors.notSupported(p, 'z', ['a', 'b']).body(),
      'Unsupported value: "z": supported values: "a", "b"',
    );
    assert.equal(fieldErrors.tooMany(p, 3, 2).body(), 'Too many: 3: must have at most 2 items');
    assert.equal(fieldErrors.duplicate(p, 'a').body(), 'Duplicate value: "a"');
  });
});
