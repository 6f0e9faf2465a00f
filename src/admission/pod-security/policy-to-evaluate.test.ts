import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Policy } from './policy.js';
import { policyToEvaluate } from './policy-to-evaluate.js';

const privileged: Policy = {
  enforce: { level: 'privileged', version: 'latest' },
  audit: { level: 'privileged', version: 'latest' },
  warn: { level: 'privileged', version: 'latest' },
};
const p = 'pod-security.kubernetes.io/';

test('no labels: the defaults themselves', () => {
  assert.equal(policyToEvaluate(undefined, privileged).policy, privileged);
  assert.equal(policyToEvaluate({}, privileged).policy, privileged);
  assert.deepEqual(policyToEvaluate({ 'kubernetes.io/metadata.name': 'x' }, privileged), {
    policy: privileged,
    errors: [],
  });
});

test('labels set levels and versions; warn follows a stricter enforce unless set', () => {
  assert.deepEqual(
    policyToEvaluate({ [`${p}enforce`]: 'baseline', [`${p}enforce-version`]: 'v1.22' }, privileged).policy,
    {
      enforce: { level: 'baseline', version: 22 },
      audit: { level: 'privileged', version: 'latest' },
      warn: { level: 'baseline', version: 22 },
    },
  );
  assert.deepEqual(
    policyToEvaluate(
      { [`${p}enforce`]: 'restricted', [`${p}warn-version`]: 'v1.0', [`${p}audit`]: 'baseline' },
      privileged,
    ).policy,
    {
      enforce: { level: 'restricted', version: 'latest' },
      audit: { level: 'baseline', version: 'latest' },
      warn: { level: 'restricted', version: 0 },
    },
  );
  assert.deepEqual(
    policyToEvaluate({ [`${p}enforce`]: 'restricted', [`${p}warn`]: 'privileged' }, privileged).policy.warn,
    {
      level: 'privileged',
      version: 'latest',
    },
  );
});

test('bad labels: errors, enforce fails closed, audit and warn fail open, versions read as latest', () => {
  const { policy, errors } = policyToEvaluate(
    {
      [`${p}enforce`]: 'strict',
      [`${p}enforce-version`]: 'v1.022',
      [`${p}audit`]: 'bad',
      [`${p}warn`]: 'bad',
      [`${p}warn-version`]: '1.22',
    },
    { ...privileged, audit: { level: 'baseline', version: 3 } },
  );
  assert.deepEqual(policy, {
    enforce: { level: 'restricted', version: 'latest' },
    audit: { level: 'privileged', version: 3 },
    warn: { level: 'privileged', version: 'latest' },
  });
  assert.deepEqual(
    errors.map((e) => e.toString()),
    [
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.022": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "bad": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "bad": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.22": must be "latest" or "v1.x"',
    ],
  );
  // A bad enforce level does not pull warn along.
  assert.equal(policyToEvaluate({ [`${p}enforce`]: 'x' }, privileged).policy.warn.level, 'privileged');
});
