import assert from 'node:assert/strict';
import { test } from 'node:test';
import { podTemplate, workload } from '../../apps/v1/testdata/fixtures.js';
import { defaultCronJob, defaultJob } from './defaults.js';

test('Job defaults: completions/parallelism 1, backoffLimit 6, NonIndexed, not suspended', () => {
  const job = workload('Job', 'batch/v1', { template: podTemplate({ app: 'x' }, 'Never') }, 'pi');
  defaultJob(job);
  const spec = job['spec'] as Record<string, unknown>;
  assert.equal(spec['completions'], 1);
  assert.equal(spec['parallelism'], 1);
  assert.equal(spec['backoffLimit'], 6);
  assert.equal(spec['completionMode'], 'NonIndexed');
  assert.equal(spec['suspend'], false);
  assert.deepEqual(job.metadata.labels, { app: 'x' });
  assert.equal((spec['template'] as { spec: Record<string, unknown> }).spec['restartPolicy'], 'Never');
});

test('Job with parallelism only keeps completions unset; pod failure policy statuses default True', () => {
  const job = workload('Job', 'batch/v1', {
    parallelism: 3,
    podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
  });
  defaultJob(job);
  const spec = job['spec'] as Record<string, unknown>;
  assert.equal(spec['completions'], undefined);
  assert.equal(spec['parallelism'], 3);
  assert.deepEqual(spec['podFailurePolicy'], {
    rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
  });
  // Template restartPolicy is defaulted to Always (validation then rejects it).
  assert.equal((spec['template'] as { spec: Record<string, unknown> }).spec['restartPolicy'], 'Always');
});

test('CronJob defaults, including its job template', () => {
  const cj = workload('CronJob', 'batch/v1', { schedule: '* * * * *', jobTemplate: { spec: {} } });
  defaultCronJob(cj);
  const spec = cj['spec'] as Record<string, unknown>;
  assert.equal(spec['concurrencyPolicy'], 'Allow');
  assert.equal(spec['suspend'], false);
  assert.equal(spec['successfulJobsHistoryLimit'], 3);
  assert.equal(spec['failedJobsHistoryLimit'], 1);
  const jobSpec = (spec['jobTemplate'] as { spec: Record<string, unknown> }).spec;
  assert.equal(jobSpec['backoffLimit'], 6);
  assert.equal(jobSpec['completions'], 1);
});
