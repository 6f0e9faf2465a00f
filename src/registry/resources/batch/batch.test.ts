import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ctx, messages, podTemplate, workload } from '../../../apis/apps/v1/testdata/fixtures.js';
import { defaultCronJob, defaultJob } from '../../../apis/batch/v1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { cronJobs } from './cronjobs.js';
import { jobs } from './jobs.js';

const uid = '11111111-2222-3333-4444-555555555555';

function job(spec: JsonObject, name = 'pi'): KubeObject {
  const j = workload('Job', 'batch/v1', spec, name);
  defaultJob(j);
  return j;
}

test('Job create generates the selector and template labels; the Job takes them as labels', () => {
  const j = job({ template: podTemplate({}, 'Never') });
  jobs.strategy.prepareForCreate(ctx, j);
  const spec = j['spec'] as JsonObject;
  assert.deepEqual(spec['selector'], { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  const labels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': 'pi',
    'controller-uid': uid,
    'job-name': 'pi',
  };
  assert.deepEqual((spec['template'] as { metadata: JsonObject }).metadata['labels'], labels);
  assert.deepEqual(j.metadata.labels, labels);
  assert.equal(j.metadata.generation, 1);
  assert.deepEqual(messages(jobs.strategy.validate(ctx, j)), []);
});

test('Job restartPolicy must be OnFailure or Never (upstream message)', () => {
  const j = job({ template: podTemplate({}) });
  jobs.strategy.prepareForCreate(ctx, j);
  assert.deepEqual(messages(jobs.strategy.validate(ctx, j)), [
    'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  ]);
});

test('Job negative counts and a wrong generated label', () => {
  const j = job({
    parallelism: -1,
    completions: -2,
    template: podTemplate({ 'controller-uid': 'other' }, 'Never'),
  });
  jobs.strategy.prepareForCreate(ctx, j);
  const errs = messages(jobs.strategy.validate(ctx, j));
  assert.ok(
    errs[0]?.startsWith(`spec.template.metadata.labels[controller-uid]: Invalid value: map[string]string{`) &&
      errs[0].endsWith(`: must be '${uid}'`),
    errs.join('\n'),
  );
  assert.ok(errs.includes('spec.parallelism: Invalid value: -1: must be greater than or equal to 0'));
  assert.ok(errs.includes('spec.completions: Invalid value: -2: must be greater than or equal to 0'));
});

test('Job manual selector must match the template; selector is immutable on update', () => {
  const j = job({
    manualSelector: true,
    selector: { matchLabels: { a: 'b' } },
    template: podTemplate({ a: 'c' }, 'Never'),
  });
  jobs.strategy.prepareForCreate(ctx, j);
  assert.deepEqual(messages(jobs.strategy.validate(ctx, j)), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`',
  ]);
  const ok = job({
    manualSelector: true,
    selector: { matchLabels: { a: 'b' } },
    template: podTemplate({ a: 'b' }, 'Never'),
  });
  jobs.strategy.prepareForCreate(ctx, ok);
  const upd = cloneJson(ok);
  (upd['spec'] as JsonObject)['selector'] = { matchLabels: { a: 'b', c: 'd' } };
  (upd['spec'] as JsonObject)['parallelism'] = 4;
  jobs.strategy.prepareForUpdate(ctx, upd, ok);
  assert.equal(upd.metadata.generation, 2);
  const errs = messages(jobs.strategy.validateUpdate(ctx, upd, ok));
  assert.ok(
    errs.includes(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b", "c":"d"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ),
    errs.join('\n'),
  );
});

test('Job status.successful is selectable; name warning', () => {
  const j = job({ template: podTemplate({}, 'Never') }, 'pi.v2');
  j['status'] = { succeeded: 3 };
  assert.deepEqual(jobs.selectableFields?.(j), { 'status.successful': '3' });
  assert.equal(jobs.strategy.warningsOnCreate(ctx, j).length, 1);
});

function cronJob(spec: JsonObject, name = 'hello'): KubeObject {
  const cj = workload(
    'CronJob',
    'batch/v1',
    { jobTemplate: { spec: { template: podTemplate({}, 'OnFailure') } }, ...spec },
    name,
  );
  defaultCronJob(cj);
  return cj;
}

test('CronJob: valid, schedule required and parsed', () => {
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '*/1 * * * *' }))), []);
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, cronJob({}))), ['spec.schedule: Required value']);
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '* * *' }))), [
    'spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
  ]);
});

test('CronJob time zones', () => {
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '0 * * * *', timeZone: 'Europe/Paris' }))),
    [],
  );
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '0 * * * *', timeZone: 'Mars/Base' }))),
    ['spec.timeZone: Invalid value: "Mars/Base": unknown time zone Mars/Base'],
  );
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '0 * * * *', timeZone: '../etc' }))),
    ['spec.timeZone: Invalid value: "../etc": unknown time zone ../etc'],
  );
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '0 * * * *', timeZone: 'Local' }))),
    [
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ],
  );
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: '0 * * * *', timeZone: '' }))),
    ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
  );
  assert.deepEqual(
    messages(cronJobs.strategy.validate(ctx, cronJob({ schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' }))),
    [
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ],
  );
  const tzInSchedule = cronJob({ schedule: 'CRON_TZ=UTC 0 * * * *' });
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, tzInSchedule)), []);
  assert.deepEqual(cronJobs.strategy.warningsOnCreate(ctx, tzInSchedule), [
    'CRON_TZ or TZ used in spec.spec.schedule is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
  ]);
});

test('CronJob name limit, job template selector, concurrency policy', () => {
  const long = cronJob({ schedule: '@daily' }, 'a'.repeat(53));
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, long)), [
    `metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`,
  ]);
  assert.deepEqual(messages(cronJobs.strategy.validateUpdate(ctx, long, long)), []);
  const cj = cronJob({ schedule: '@daily', concurrencyPolicy: 'Sometimes' });
  ((cj['spec'] as JsonObject)['jobTemplate'] as { spec: JsonObject }).spec['selector'] = {
    matchLabels: { a: 'b' },
  };
  assert.deepEqual(messages(cronJobs.strategy.validate(ctx, cj)), [
    'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
    'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
  ]);
});
