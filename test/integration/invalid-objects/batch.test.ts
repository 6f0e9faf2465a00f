/** Invalid batch/v1 objects and v1.27's exact field errors (pkg/apis/batch/validation). */
import { runTable } from './support.js';
import type { Row } from './support.js';

const ns = '/apis/batch/v1/namespaces/invalid';
const podSpec = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] };

const rows: Row[] = [
  {
    kind: 'Job',
    group: 'batch',
    path: `${ns}/jobs`,
    name: 'job parallelism and completions negative',
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      spec: { parallelism: -1, completions: -1, template: { spec: podSpec } },
    },
    causes: [
      ['spec.parallelism', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.completions', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
    ],
  },
  {
    kind: 'Job',
    group: 'batch',
    path: `${ns}/jobs`,
    name: 'job template restartPolicy Always',
    body: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j-restart' },
      spec: { template: { spec: { ...podSpec, restartPolicy: 'Always' } } },
    },
    causes: [
      [
        'spec.template.spec.restartPolicy',
        'FieldValueRequired',
        'Required value: valid values: "OnFailure", "Never"',
      ],
    ],
  },
  {
    kind: 'CronJob',
    group: 'batch',
    path: `${ns}/cronjobs`,
    name: 'cronjob timeZone unknown (AM-10)',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj-tz' },
      spec: {
        schedule: '* * * * *',
        timeZone: 'Mars/Olympus',
        jobTemplate: { spec: { template: { spec: podSpec } } },
      },
    },
    causes: [
      ['spec.timeZone', 'FieldValueInvalid', 'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ],
  },
  {
    kind: 'CronJob',
    group: 'batch',
    path: `${ns}/cronjobs`,
    name: 'cronjob TZ in schedule and a timeZone (AM-10)',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj-tzsched' },
      spec: {
        schedule: 'TZ=UTC * * * * *',
        timeZone: 'UTC',
        jobTemplate: { spec: { template: { spec: podSpec } } },
      },
    },
    causes: [
      [
        'spec.schedule',
        'FieldValueInvalid',
        'Invalid value: "TZ=UTC * * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
      ],
    ],
  },
  {
    kind: 'CronJob',
    group: 'batch',
    path: `${ns}/cronjobs`,
    name: 'cronjob schedule unparsable; concurrencyPolicy unsupported',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj-sched' },
      spec: {
        schedule: 'never',
        concurrencyPolicy: 'Sometimes',
        jobTemplate: { spec: { template: { spec: podSpec } } },
      },
    },
    causes: [
      [
        'spec.schedule',
        'FieldValueInvalid',
        'Invalid value: "never": expected exactly 5 fields, found 1: [never]',
      ],
      [
        'spec.concurrencyPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      ],
    ],
  },
];

const warnings: Row[] = [
  {
    path: `${ns}/cronjobs`,
    name: 'warning: TZ in the schedule is not officially supported',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj-tz-warn' },
      spec: { schedule: 'CRON_TZ=UTC * * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } },
    },
    warnings: [
      'CRON_TZ or TZ used in spec.spec.schedule is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
    ],
  },
  {
    path: `${ns}/cronjobs`,
    name: 'warning: a name that is not a DNS label (AM-12)',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj.dotted' },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } },
    },
    warnings: [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ],
  },
];

runTable('invalid batch/v1 objects', rows);
runTable('batch/v1 warnings', warnings);
