import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rootedCleanPath } from './go-path.js';

describe('rootedCleanPath (Go path.Clean of a rooted path)', () => {
  it('drops empty and dot elements, resolves .. without climbing above the root', () => {
    assert.equal(rootedCleanPath(''), '/');
    assert.equal(rootedCleanPath('a//b/./c/'), '/a/b/c');
    assert.equal(rootedCleanPath('/a/../../b'), '/b');
    assert.equal(rootedCleanPath('../..'), '/');
  });
});
