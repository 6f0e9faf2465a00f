import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findDuplicateFields } from './duplicates.js';

describe('findDuplicateFields', () => {
  it('finds repeated keys with strict-decoding paths', () => {
    assert.deepEqual(findDuplicateFields('{"metadata":{"name":"a","name":"b"}}'), ['metadata.name']);
    assert.deepEqual(findDuplicateFields('{"a":1,"a":2,"b":[{"c":1},{"c":1,"c":2}],"d":[[{"e":1,"e":1}]]}'), [
      'a',
      'b[1].c',
      'd[0][0].e',
    ]);
  });

  it('ignores keys in different objects, string contents and escapes', () => {
    assert.deepEqual(
      findDuplicateFields('{"a":{"x":1},"b":{"x":1},"s":"\\"a\\":1, {\\"a\\"","c":[],"e":{}}'),
      [],
    );
    assert.deepEqual(findDuplicateFields(' { "k\\u0061" : 1 , "ka" : [ 1 , true , null ] } '), ['ka']);
    assert.deepEqual(findDuplicateFields('[]'), []);
  });
});
