import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatLabelSelector, formatLabels, labelSelectorString } from './selectors.js';

describe('formatLabels', () => {
  it('sorts k=v pairs', () => {
    assert.equal(formatLabels({ tier: 'web', app: 'x' }), 'app=x,tier=web');
  });
  it('is <none> when empty or absent', () => {
    assert.equal(formatLabels({}), '<none>');
    assert.equal(formatLabels(undefined), '<none>');
  });
});

describe('label selectors', () => {
  it('formats matchLabels and expressions sorted by key, values sorted', () => {
    const sel = {
      matchLabels: { app: 'x' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['b', 'a'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'Exists', values: [] },
      ],
    };
    assert.equal(formatLabelSelector(sel), 'app=x,!canary,env notin (prod),tier in (a,b),zone');
  });
  it('distinguishes absent/empty from invalid', () => {
    assert.equal(labelSelectorString(undefined), '');
    assert.equal(labelSelectorString({}), '');
    assert.equal(formatLabelSelector(undefined), '<none>');
    assert.equal(formatLabelSelector({ matchLabels: {} }), '<none>');
    assert.equal(labelSelectorString({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }), undefined);
    assert.equal(
      formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
      '<error>',
    );
    assert.equal(
      formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
      '<error>',
    );
  });
});
