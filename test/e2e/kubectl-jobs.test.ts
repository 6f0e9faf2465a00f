/**
 * With kubectl 1.27 against `nanokube serve --nodes 1`: `kubectl create job`
 * then `kubectl wait --for=condition=complete`; a CronJob made from a template by hand
 * (`create job --from=cronjob/…`) and a `*\/1 * * * *` CronJob that fires on its own within two
 * minutes; ttlSecondsAfterFinished deletes a finished Job.
 *
 * NEEDS WIRING: runs once `job`, `cronjob` and `ttl-after-finished` are in
 * src/cmd/controller-manager/selection.ts implementedControllers (and run.ts starts
 * JobController, CronJobController, TtlAfterFinishedController); skipped until then.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { implementedControllers } from '../../src/cmd/controller-manager/selection.js';
import { lines } from './support/kubectl-runner.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const wired = ['job', 'cronjob', 'ttl-after-finished'].every((n) => implementedControllers[n] === true);
const skip =
  kubectlSkip !== false ? kubectlSkip : wired ? false : 'job/cronjob/ttl-after-finished not wired yet';

async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('kubectl 1.27: Jobs and CronJobs on a simulated node', { skip }, () => {
  const s = kubectlSession({ args: ['--nodes', '1'] });
  const ns = ['-n', 'batch'];

  it('kubectl create job, then wait --for=condition=complete', async () => {
    await s.ok(['create', 'namespace', 'batch']);
    await s.namespaceReady('batch');
    await s.ok([...ns, 'create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi']);
    await s.ok([...ns, 'wait', '--for=condition=complete', 'job/hello', '--timeout=90s']);
    const status = await s.ok([
      ...ns,
      'get',
      'job',
      'hello',
      '-o',
      'jsonpath={.status.succeeded} {.status.completionTime}',
    ]);
    assert.match(status, /^1 \d{4}-\d\d-\d\dT/);
    const pods = lines(
      await s.ok([
        ...ns,
        'get',
        'pods',
        '-l',
        'job-name=hello',
        '-o',
        'jsonpath={.items[*].metadata.finalizers}',
      ]),
    );
    // Counted pods no longer carry the batch.kubernetes.io/job-tracking finalizer.
    assert.ok(
      pods.every((l) => !l.includes('job-tracking')),
      pods.join('\n'),
    );
  });

  it('a job from a CronJob template by hand, and the CronJob firing on its own', async () => {
    await s.ok([
      ...ns,
      'create',
      'cronjob',
      'tick',
      '--image=busybox',
      '--schedule=*/1 * * * *',
      '--',
      'date',
    ]);
    await s.ok([...ns, 'create', 'job', 'tick-manual', '--from=cronjob/tick']);
    await s.ok([...ns, 'wait', '--for=condition=complete', 'job/tick-manual', '--timeout=90s']);
    await until(
      async () =>
        /^tick-\d+$/m.test(
          (
            await s.ok([...ns, 'get', 'jobs', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}'])
          ).trim(),
        ),
      'the CronJob to fire',
      150_000,
    );
    await until(
      async () =>
        (await s.ok([...ns, 'get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastScheduleTime}'])) !== '',
      'lastScheduleTime',
    );
  });

  it('ttlSecondsAfterFinished deletes a finished Job', async () => {
    await s.ok([...ns, 'create', 'job', 'short', '--image=busybox', '--', 'true']);
    await s.ok([
      ...ns,
      'patch',
      'job',
      'short',
      '--type=merge',
      '-p',
      '{"spec":{"ttlSecondsAfterFinished":0}}',
    ]);
    await until(
      async () => {
        const out = await s.ok([...ns, 'get', 'jobs', '-o', 'name']);
        return !out.includes('job.batch/short');
      },
      'the finished Job to be deleted',
      90_000,
    );
  });

  itStopsCleanly(s);
});
