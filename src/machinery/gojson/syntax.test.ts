import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goJsonSyntaxError, goQuoteChar } from './syntax.js';

const err = (text: string | Uint8Array, depth?: number): string | undefined =>
  goJsonSyntaxError(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, depth)?.message;

describe('Go encoding/json syntax errors', () => {
  it('accepts what Go accepts', () => {
    for (const ok of [
      '{}',
      ' [1, -0.5e+3, "a\\u00e9\\n", true, false, null] ',
      '"x"',
      '12',
      '{"a":{"b":[]}}',
    ]) {
      assert.equal(err(ok), undefined, ok);
    }
  });

  it('words each scanner state as Go does (texts from encoding/json/scanner.go and its tests)', () => {
    const cases: [string, string][] = [
      ['', 'unexpected end of JSON input'],
      ['   ', 'unexpected end of JSON input'],
      ['{"metadata":', 'unexpected end of JSON input'],
      ['{"a":"b', 'unexpected end of JSON input'],
      ['not json', "invalid character 'o' in literal null (expecting 'u')"],
      ['x', "invalid character 'x' looking for beginning of value"],
      ['{"a":1, n}', "invalid character 'n' looking for beginning of object key string"],
      ['{"a" 1}', "invalid character '1' after object key"],
      ['{"a":1}}', "invalid character '}' after top-level value"],
      ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
      ['[1 2]', "invalid character '2' after array element"],
      ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
      ['[1,]', "invalid character ']' looking for beginning of value"],
      ['"\t"', "invalid character '\\t' in string literal"],
      ['"\\x"', "invalid character 'x' in string escape code"],
      ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
      ['-a', "invalid character 'a' in numeric literal"],
      ['-', "invalid character ' ' in numeric literal"],
      ['1.x', "invalid character 'x' after decimal point in numeric literal"],
      ['1.', "invalid character ' ' after decimal point in numeric literal"],
      ['1e+', "invalid character ' ' in exponent of numeric literal"],
      ['01', "invalid character '1' after top-level value"],
      ['tru', "invalid character ' ' in literal true (expecting 'e')"],
      ['fals3', "invalid character '3' in literal false (expecting 'e')"],
      ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
      ['{"a":\u00e9}', "invalid character 'Ã' looking for beginning of value"],
      ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ];
    for (const [input, want] of cases) assert.equal(err(input), want, JSON.stringify(input));
  });

  it('stops at the nesting bound with the byte that crosses it', () => {
    assert.equal(err('['.repeat(10_001)), "invalid character '[' exceeded max depth");
    assert.equal(err('['.repeat(10_000)), 'unexpected end of JSON input');
    assert.equal(err('{"a":'.repeat(3) + '{}}}}', 3), "invalid character '{' exceeded max depth");
  });

  it("matches encoding/json's own decode_test syntax cases, offsets included", () => {
    const cases: [string, string, number][] = [
      ['{"X": "foo", "Y"}', "invalid character '}' after object key", 17],
      ['[1, 2, 3+]', "invalid character '+' after array element", 9],
      ['{"X":12x}', "invalid character 'x' after object key:value pair", 8],
      ['[2, 3', 'unexpected end of JSON input', 5],
    ];
    for (const [input, message, offset] of cases) {
      assert.deepEqual(goJsonSyntaxError(Buffer.from(input)), { message, offset }, input);
    }
  });

  it('reports the byte offset Go reports', () => {
    assert.equal(goJsonSyntaxError(Buffer.from('{"a" 1}'))?.offset, 6);
    assert.equal(goJsonSyntaxError(Buffer.from('{"a":'))?.offset, 5);
  });

  it('quotes bytes as quoteChar does', () => {
    assert.equal(goQuoteChar(0x00), "'\\x00'");
    assert.equal(goQuoteChar(0x7f), "'\\x7f'");
    assert.equal(goQuoteChar(0x85), "'\\u0085'");
    assert.equal(goQuoteChar(0xad), "'\\u00ad'");
    assert.equal(goQuoteChar(0xff), "'ÿ'");
    assert.equal(goQuoteChar(0x5c), "'\\\\'");
    assert.equal(goQuoteChar(0x22), `'"'`);
  });
});
