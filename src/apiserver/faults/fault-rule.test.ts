/** Fault rules are checked before they take effect: each mistake is refused with its field. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFaultFile, checkFaultRule, FaultRuleError } from './fault-rule.js';

test('a rule reads verbs, group-qualified resources and subresources, and its action', () => {
  const r = checkFaultRule({
    verb: ['update', 'patch'],
    resource: ['deployments.apps', 'pods/status'],
    namespace: 'ns',
    count: 2,
    status: 429,
    retryAfterSeconds: 3,
    latency: '250ms',
  });
  assert.deepEqual([...(r.verbs ?? [])], ['update', 'patch']);
  assert.deepEqual(r.resources, [
    { resource: 'deployments', group: 'apps' },
    { resource: 'pods', subresource: 'status' },
  ]);
  assert.equal(r.latencyMs, 250);
  assert.equal(r.count, 2);
  // A watch rule applies to watches only.
  assert.deepEqual([...(checkFaultRule({ watch: 'drop' }).verbs ?? [])], ['watch']);
});

test('mistakes are refused, naming the field', () => {
  const cases: [unknown, RegExp][] = [
    [{ status: 418 }, /fault\.status: must be one of 409, 429, 500, 503, 504/],
    [{ stauts: 409 }, /fault: unknown field "stauts"/],
    [{ verb: 'explode', status: 500 }, /fault\.verb: unknown verb "explode"/],
    [{ resource: 'pods' }, /says no fault: give status, expire, watch or latency/],
    [{ status: 500, expire: true }, /status, expire and watch exclude each other/],
    [{ status: 409, retryAfterSeconds: 1 }, /retryAfterSeconds: only with status 429, 503 or 504/],
    [{ status: 500, count: 0 }, /count: must be a whole number of at least 1/],
    [{ latency: 'soon' }, /latency: time: invalid duration "soon"/],
    [{ watch: 'close', latency: '1s' }, /latency does not apply to closing watches/],
    [{ watch: 'close', verb: 'get' }, /a watch fault applies to watch only/],
    [{ watch: 'explode' }, /watch: must be "close" or "drop"/],
    ['409', /fault: must be an object/],
  ];
  for (const [rule, message] of cases) {
    assert.throws(
      () => checkFaultRule(rule),
      (err: unknown) => err instanceof FaultRuleError && message.test(err.message),
    );
  }
});

test('a faults file is a mapping with a list of rules; an empty file has none', () => {
  assert.deepEqual(checkFaultFile(null), []);
  assert.equal(checkFaultFile({ faults: [{ status: 500 }, { latency: 10 }] }).length, 2);
  assert.throws(() => checkFaultFile([{ status: 500 }]), /expected a mapping with "faults:"/);
  assert.throws(() => checkFaultFile({ rules: [] }), /unknown field "rules"/);
  assert.throws(() => checkFaultFile({ faults: [{ status: 500 }, { status: 1 }] }), /faults\[1\]\.status/);
});
