// cel-go v0.12.7 conversions (common/types ConvertToType) where @bufbuild/cel differs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evalCel, plain } from '../runtime/test-helpers.js';
import { goFormatG, goParseDuration } from './conversions.js';

function value(expr: string): unknown {
  const r = evalCel(expr);
  assert.ok('value' in r, `${expr}: ${'error' in r ? r.error.message : ''}`);
  return plain(r.value);
}

function error(expr: string): string {
  const r = evalCel(expr);
  assert.ok('error' in r, `${expr}: expected an error`);
  return r.error.message;
}

describe('conversions as cel-go v0.12.7', () => {
  it('string(double) is fmt %g', () => {
    assert.equal(value('string(1000000.0)'), '1e+06');
    assert.equal(value('string(123456789.0)'), '1.23456789e+08');
    assert.equal(value('string(100000.0)'), '100000');
    assert.equal(value('string(1.5)'), '1.5');
    assert.equal(value('string(0.0001)'), '0.0001');
    assert.equal(value('string(0.00001)'), '1e-05');
    assert.equal(goFormatG(-Infinity), '-Inf');
    assert.equal(goFormatG(NaN), 'NaN');
  });
  it('string(duration) and string(timestamp)', () => {
    assert.equal(value("string(duration('1.5s'))"), '1.5s');
    assert.equal(value("string(duration('-90m'))"), '-5400s');
    assert.equal(value("string(duration('1500\u00b5s'))"), '0.0015s');
    assert.equal(value("string(duration('1500\u03bcs'))"), '0.0015s');
    assert.equal(value("string(timestamp('2020-01-01T00:00:00.500Z'))"), '2020-01-01T00:00:00.5Z');
    assert.equal(value("string(timestamp('2020-01-01T01:00:00+01:00'))"), '2020-01-01T00:00:00Z');
  });
  it('strconv parsing', () => {
    assert.equal(value("int('-42')"), -42n);
    assert.equal(value("uint('42')"), '42u');
    assert.equal(value("double('1e3')"), 1000);
    assert.equal(value("bool('True')"), true);
    assert.equal(error("int('0x10')"), "type conversion error from 'string' to 'int'");
    assert.equal(error("int(' 1')"), "type conversion error from 'string' to 'int'");
    assert.equal(error("int('9223372036854775808')"), "type conversion error from 'string' to 'int'");
    assert.equal(error("uint('-1')"), "type conversion error from 'string' to 'uint'");
    assert.equal(error("double('x')"), "type conversion error from 'string' to 'double'");
    assert.equal(error("bool('yes')"), "type conversion error from 'string' to 'bool'");
  });
  it('time.ParseDuration', () => {
    assert.equal(goParseDuration('1h2m1s'), 3_721_000_000_000n);
    assert.equal(goParseDuration('1.5us'), 1500n);
    assert.equal(goParseDuration('-0.5s'), -500_000_000n);
    assert.equal(goParseDuration('0'), 0n);
    assert.equal(
      error("duration('1d')"),
      "type conversion error from 'string' to 'google.protobuf.Duration'",
    );
  });
  it('RFC 3339 timestamps in range', () => {
    assert.equal(value("int(timestamp('0001-01-01T00:00:00Z'))"), -62135596800n);
    assert.equal(
      error("timestamp('2020-13-01T00:00:00Z')"),
      "type conversion error from 'string' to 'google.protobuf.Timestamp'",
    );
  });
  it('string(bytes) requires UTF-8', () => {
    assert.equal(error("string(b'\\xff')"), 'invalid UTF-8 in bytes, cannot convert to string');
  });
});
