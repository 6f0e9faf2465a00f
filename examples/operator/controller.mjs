/**
 * job-report: a small controller written with @kubernetes/client-node 1.x.
 *
 * It watches the Jobs of one namespace through an informer (list, then watch; a 410 Gone makes
 * it list again) and keeps one ConfigMap, `job-report`, whose data maps every Job's name to what
 * started it: `CronJob/<name>` for a Job a CronJob created, `-` for one created directly.
 *
 * Writes are optimistic: read the ConfigMap, change it, replace it with the resourceVersion just
 * read. A 409 Conflict means that someone wrote in between, so it reads again and retries. Any
 * other failure is retried a second later; changes seen meanwhile fold into the next pass.
 */
import { ApiException, BatchV1Api, CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';

export const REPORT = 'job-report';
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'job-report' };

/** What started a Job: its controlling owner as `Kind/name`, or `-`. */
export function startedBy(job) {
  const owner = job.metadata?.ownerReferences?.find((ref) => ref.controller);
  return owner ? `${owner.kind}/${owner.name}` : '-';
}

const isStatus = (err, code) => err instanceof ApiException && err.code === code;

function sameData(a = {}, b = {}) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Starts the controller. `kubeconfig`: a KubeConfig, or kubeconfig YAML text (such as
 * nanokube's `cluster.kubeconfig`). Resolves once the first list is in the cache (or has failed,
 * to be tried again); the returned object's `stop()` ends the watch and every timer.
 */
export async function start({ kubeconfig, namespace = 'default', log = () => {} }) {
  const kc = kubeconfig instanceof KubeConfig ? kubeconfig : new KubeConfig();
  if (typeof kubeconfig === 'string') kc.loadFromString(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const batch = kc.makeApiClient(BatchV1Api);

  let stopped = false;
  let dirty = false; // something changed since the last pass began
  let running; // the pass in progress
  let kick; // setImmediate that starts one
  let retry; // setTimeout after a failed pass
  let restart; // setTimeout after a failed list or watch
  let starting; // the informer's (re)start in progress
  const stats = { writes: 0, conflicts: 0 };

  const informer = makeInformer(kc, `/apis/batch/v1/namespaces/${namespace}/jobs`, async () => {
    const list = await batch.listNamespacedJob({ namespace });
    if (stopped) throw new Error('stopped'); // don't open a watch after stop()
    enqueue(); // (re)listed: a pass once the list is in the cache
    return list;
  });

  // Events only mark the report dirty. The pass starts on a later turn of the event loop, after
  // the informer has taken in a whole list (which it does synchronously, after the request).
  function enqueue() {
    dirty = true;
    if (stopped || running || kick) return;
    kick = setImmediate(() => {
      kick = undefined;
      running = drain();
    });
  }

  async function drain() {
    while (dirty && !stopped) {
      dirty = false;
      try {
        await reconcile();
      } catch (err) {
        if (stopped) break;
        log(`job-report: ${err.message ?? err}; retrying in 1s`);
        clearTimeout(retry);
        retry = setTimeout(enqueue, 1000);
      }
    }
    running = undefined;
  }

  async function reconcile() {
    const jobs = informer.list(namespace);
    const data = Object.fromEntries(jobs.map((job) => [job.metadata.name, startedBy(job)]).sort());
    for (let attempt = 1; ; attempt++) {
      let report;
      try {
        report = await core.readNamespacedConfigMap({ name: REPORT, namespace });
      } catch (err) {
        if (!isStatus(err, 404)) throw err;
        const body = { metadata: { name: REPORT, labels: MANAGED_BY }, data };
        try {
          await core.createNamespacedConfigMap({ namespace, body });
          stats.writes++;
          return;
        } catch (err) {
          if (!isStatus(err, 409) || attempt >= 5) throw err; // created meanwhile: read it
          stats.conflicts++;
          continue;
        }
      }
      if (sameData(report.data, data)) return;
      report.data = data;
      try {
        await core.replaceNamespacedConfigMap({ name: REPORT, namespace, body: report });
        stats.writes++;
        return;
      } catch (err) {
        if (!isStatus(err, 409) || attempt >= 5) throw err;
        stats.conflicts++;
        log(`job-report: conflict writing ${namespace}/${REPORT}; reading it again`);
      }
    }
  }

  informer.on('add', enqueue);
  informer.on('update', enqueue);
  informer.on('delete', enqueue);
  // The informer stops on an error other than 410 Gone; start it again, as client-go would.
  informer.on('error', (err) => {
    if (stopped) return;
    log(`job-report: list or watch failed: ${err?.message ?? err}; restarting in 1s`);
    clearTimeout(restart);
    restart = setTimeout(() => (starting = informer.start()), 1000);
  });

  await (starting = informer.start());

  return {
    /** Writes to the report, and the 409 Conflicts retried, so far. */
    get stats() {
      return { ...stats };
    },
    /** Jobs in the informer's cache. */
    cached: () => informer.list(namespace).map((job) => job.metadata.name),
    async stop() {
      stopped = true;
      clearImmediate(kick);
      clearTimeout(retry);
      clearTimeout(restart);
      await informer.stop();
      await starting; // a start in progress may still open a watch: end that one too
      await informer.stop();
      await running;
    },
  };
}
