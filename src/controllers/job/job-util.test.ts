import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  backoffRemaining,
  formatIndexes,
  generateNameWithIndex,
  matchPodFailurePolicy,
  parseIndexes,
} from './job-util.js';

test('completed indexes as ordered intervals', () => {
  assert.equal(formatIndexes([5, 0, 1, 2, 7, 8]), '0-2,5,7-8');
  assert.deepEqual(
    [...parseIndexes('0-2,5,7-8', 8)].sort((a, b) => a - b),
    [0, 1, 2, 5, 7],
  );
  assert.equal(formatIndexes([]), '');
});

test('indexed generateName stays within 58 characters', () => {
  assert.equal(generateNameWithIndex('pi', 3), 'pi-3-');
  const long = 'x'.repeat(60);
  assert.equal(generateNameWithIndex(long, 12), `${'x'.repeat(54)}-12-`);
});

test('pod failure policy: first matching rule; exit code 0 never matches', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'n' },
    status: {
      phase: 'Failed',
      containerStatuses: [
        { name: 'a', state: { terminated: { exitCode: 0 } } },
        { name: 'b', state: { terminated: { exitCode: 3 } } },
      ],
      conditions: [{ type: 'DisruptionTarget', status: 'True' }],
    },
  };
  const policy = {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'False' }] },
      { action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [0, 1] } },
    ],
  };
  assert.deepEqual(matchPodFailurePolicy(policy, pod), {
    failJobMessage: 'Container b for pod n/p failed with exit code 3 matching FailJob rule at index 1',
    countFailed: true,
    action: 'FailJob',
  });
  const ignore = {
    rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
  };
  assert.deepEqual(matchPodFailurePolicy(ignore, pod), { countFailed: false, action: 'Ignore' });
  assert.deepEqual(matchPodFailurePolicy(undefined, pod), { countFailed: true });
});

test('pod backoff: 10 s doubling per failure since the last success, capped', () => {
  assert.equal(
    backoffRemaining({ failuresAfterLastSuccess: 0, lastFailureTime: undefined }, 0, 10_000, 360_000),
    0,
  );
  assert.equal(
    backoffRemaining({ failuresAfterLastSuccess: 1, lastFailureTime: 0 }, 4000, 10_000, 360_000),
    6000,
  );
  assert.equal(
    backoffRemaining({ failuresAfterLastSuccess: 3, lastFailureTime: 0 }, 0, 10_000, 360_000),
    40_000,
  );
  assert.equal(
    backoffRemaining({ failuresAfterLastSuccess: 20, lastFailureTime: 0 }, 0, 10_000, 360_000),
    360_000,
  );
});
