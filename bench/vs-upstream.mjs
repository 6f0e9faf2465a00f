#!/usr/bin/env node
// nanokube side by side with upstream: every figure both servers in one run, on this machine, with
// the same client, and the ratio of the two. Upstream is the reference build of
// ../shared/docs/reference-build.md ($REF_DIR, default ~/ref: bin/kube-apiserver,
// bin/kube-controller-manager and the PKI its start.sh makes in pki/) over Debian's etcd; without
// it, the nanokube half alone is measured and the report says why.
//
// Figures (each on fresh servers, both data dirs on the same file system):
//   start       ready as a client sees it: the first successful authenticated request
//               (GET /api/v1/namespaces/default), and the default ServiceAccount present (the
//               controllers at work); fresh state and restart on the same state. Upstream:
//               etcd + kube-apiserver + kube-controller-manager spawned at once; nanokube: `serve`
//               (controllers, scheduler, one simulated node).
//   idle        RSS once settled after that start (5 s, then under 1 MiB of change over 2 s) and
//               idle 30 s after it answered (the median of 5 samples over the next 5 s: V8 gives
//               back the young generation start-up grew some 20 s after start, Go returns memory
//               on its own schedule), first start and restart; and the API server alone: `serve
//               --controllers= --nodes 0` against etcd + kube-apiserver.
//   creates     pod creates/s and latency, 16 in flight on one HTTP/2 connection, controllers on
//               (upstream: its controller manager; nanokube: `--nodes 0`, no scheduler or nodes)
//   list        a paginated LIST (500 per page, no resourceVersion) of those pods
//   podpath     pods created through the API until Running on 100 simulated nodes (upstream: its
//               control plane with `nanokube nodes --kubeconfig` beside it, the kwok arrangement;
//               nanokube: `serve --nodes 100`), pods/s and the servers' peak RSS
//   lists       16 concurrent plain LISTs (no resourceVersion, no limit) of 400 x 256 KiB Secrets:
//               the servers' RSS growth over their settled RSS (API servers alone)
//   watchlist   16 informers syncing the same Secrets with WatchList (sendInitialEvents; the gate on
//               on both sides): RSS growth
//   cores       nanokube's creates/s (controllers on, as `creates`) and its pod path (as `podpath`)
//               with both cores against pinned to one (`taskset -c 0`): what the second core buys
//   handshakes  100 clients opening a TLS connection at once and sending GET /version: the slowest
//               handshake and answer (API servers alone)
//   scale       (only with --scale) the pod path at 30,000 pods on 300 nodes (--scale-pods,
//               --scale-nodes): server RSS per Running pod over the idle RSS before the pods
//
//   npm run build && node bench/vs-upstream.mjs          every figure (about 15 minutes)
//   node bench/vs-upstream.mjs --only start,idle         some of them
//   node bench/vs-upstream.mjs --quick                   smaller counts, one round (a smoke run)
//
// Flags: --only LIST, --quick, --scale, --rounds N (start rounds, default 3), --repeat N (the
// creates, podpath and cores figures N times each, every number reported as the median of the
// runs, each run kept in the results; default 1: two shared cores move a run by a fifth), --pods N (default
// 3,000), --nodes N (default 100), --scale-pods N and --scale-nodes N (the scale figure's counts,
// default 30,000 and 300), --no-upstream, --profile DIR (V8 CPU profiles of the nanokube
// server in the creates and podpath figures, under DIR/creates and DIR/podpath-N; summarize them
// with bench/profile-summary.mjs), --node-args "FLAGS" (node/V8 flags for every nanokube server,
// after the bin's own, e.g. "--heap-growing-percent=50"), --serve-args "FLAGS" (serve flags for every
// nanokube server, e.g. "--net-thread"), --out FILE (default
// bench/vs-upstream-results.json), --report FILE (the table again from an earlier run's results)
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  binNodeFlags,
  cleanupTempDirs,
  cli,
  cpuSeconds,
  formatJson,
  freePort,
  freshDir,
  getOnce,
  h2ClientFor,
  kubeconfigCredentials,
  live,
  log,
  median,
  percentile,
  root,
  round,
  rssMiB,
  sleep,
  stopServer,
  threadShares,
  threadTimes,
} from './lib.mjs';
import { apiserverArgs, refDir, refPki, writeRefKubeconfig } from './reference.mjs';

const MiB = 1024 * 1024;
const figures = ['start', 'idle', 'creates', 'list', 'podpath', 'lists', 'watchlist', 'cores', 'handshakes'];

/** Node's flags for every nanokube server after the bin's own (`--node-args`; the last of a flag wins). */
const nodeArgs = [];
/** `serve` flags for every nanokube server before each figure's own (`--serve-args`, e.g. "--net-thread"). */
const extraServeArgs = [];

function parseArgs(argv) {
  const o = {
    only: new Set(figures),
    quick: false,
    scale: false,
    rounds: 3,
    repeat: 1,
    pods: 3000,
    nodes: 100,
    scalePods: 30_000,
    scaleNodes: 300,
    upstream: true,
    profile: '',
    out: join(root, 'bench', 'vs-upstream-results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--only') o.only = new Set(next().split(','));
    else if (a === '--quick') o.quick = true;
    else if (a === '--scale') o.scale = true;
    else if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--repeat') o.repeat = Number(next());
    else if (a === '--pods') o.pods = Number(next());
    else if (a === '--nodes') o.nodes = Number(next());
    else if (a === '--scale-pods') o.scalePods = Number(next());
    else if (a === '--scale-nodes') o.scaleNodes = Number(next());
    else if (a === '--no-upstream') o.upstream = false;
    else if (a === '--report') o.report = next();
    else if (a === '--node-args')
      nodeArgs.push(
        ...next()
          .split(/\s+/)
          .filter((x) => x !== ''),
      );
    else if (a === '--serve-args')
      extraServeArgs.push(
        ...next()
          .split(/\s+/)
          .filter((x) => x !== ''),
      );
    else if (a === '--profile') o.profile = resolve(next());
    else if (a === '--out') o.out = next();
    else throw new Error(`unknown flag ${a}`);
  }
  for (const f of o.only) if (!figures.includes(f) && f !== 'scale') throw new Error(`unknown figure ${f}`);
  if (!Number.isInteger(o.repeat) || o.repeat < 1) throw new Error('--repeat takes a whole number of runs');
  if (o.scale) o.only.add('scale');
  if (o.quick) {
    o.rounds = 1;
    o.pods = Math.min(o.pods, 500);
    o.nodes = Math.min(o.nodes, 10);
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// the two control planes, as process groups with one admin kubeconfig

const etcdBin = process.env.ETCD ?? '/usr/bin/etcd';

/** Why upstream cannot be measured here, or undefined when it can. */
function upstreamMissing() {
  const bins = ['kube-apiserver', 'kube-controller-manager'].map((b) => join(refDir, 'bin', b));
  const missingBins = [...bins, etcdBin].filter((f) => !existsSync(f));
  if (missingBins.length > 0) return `no ${missingBins.join(', ')} (see ../shared/docs/reference-build.md)`;
  const pkiFiles = [
    'ca.crt',
    'ca.key',
    'apiserver.crt',
    'apiserver.key',
    'admin.crt',
    'admin.key',
    'kube-controller-manager.crt',
    'kube-controller-manager.key',
    'sa.pub',
    'sa.key',
  ];
  if (pkiFiles.some((f) => !existsSync(join(refPki, f)))) {
    // start.sh makes the PKI (openssl) on its first run; run it once and stop what it started.
    log(`no reference PKI in ${refPki}: running ${refDir}/start.sh once to make it`);
    const started = spawnSync(join(refDir, 'start.sh'), {
      stdio: 'inherit',
      env: { ...process.env, FRESH: '1' },
    });
    spawnSync(join(refDir, 'stop.sh'), { stdio: 'inherit' });
    if (started.status !== 0) return `${refDir}/start.sh failed`;
  }
  return undefined;
}

function track(child) {
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

/**
 * etcd + kube-apiserver (+ kube-controller-manager), flags as start.sh gives them, spawned at the
 * same instant (the apiserver waits for etcd, the controller manager for the apiserver), on
 * `dir` (a fresh one, or the one of an earlier stack for a restart).
 */
async function startUpstream({ dir = freshDir(), kcm = true, gates = '' } = {}) {
  const [client, peer, port] = [await freePort(), await freePort(), await freePort()];
  const kubeconfigPath = join(dir, 'admin.kubeconfig');
  writeRefKubeconfig(kubeconfigPath, port, 'admin');
  const kcmKubeconfig = join(dir, 'kcm.kubeconfig');
  if (kcm) writeRefKubeconfig(kcmKubeconfig, port, 'kube-controller-manager');
  const t0 = performance.now();
  const children = [
    track(
      spawn(
        etcdBin,
        [
          '--name=ref',
          `--data-dir=${join(dir, 'etcd')}`,
          `--listen-client-urls=http://127.0.0.1:${client}`,
          `--advertise-client-urls=http://127.0.0.1:${client}`,
          `--listen-peer-urls=http://127.0.0.1:${peer}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
          `--initial-cluster=ref=http://127.0.0.1:${peer}`,
          '--log-level=error',
        ],
        { stdio: 'ignore' },
      ),
    ),
    track(
      spawn(
        join(refDir, 'bin', 'kube-apiserver'),
        apiserverArgs({ port, etcdUrl: `http://127.0.0.1:${client}`, gates }),
        { stdio: 'ignore' },
      ),
    ),
  ];
  if (kcm) {
    children.push(
      track(
        spawn(
          join(refDir, 'bin', 'kube-controller-manager'),
          [
            `--kubeconfig=${kcmKubeconfig}`,
            '--bind-address=127.0.0.1',
            `--secure-port=${await freePort()}`,
            `--service-account-private-key-file=${join(refPki, 'sa.key')}`,
            `--root-ca-file=${join(refPki, 'ca.crt')}`,
            `--cluster-signing-cert-file=${join(refPki, 'ca.crt')}`,
            `--cluster-signing-key-file=${join(refPki, 'ca.key')}`,
            '--use-service-account-credentials=true',
            '--controllers=*',
            '--leader-elect=false',
            '--service-cluster-ip-range=10.96.0.0/12',
            '--cluster-name=kubernetes',
          ],
          { stdio: 'ignore' },
        ),
      ),
    );
  }
  return stack('upstream', dir, t0, children, kubeconfigPath);
}

/** `nanokube serve` on `dir` (fresh, or an earlier stack's for a restart), optionally pinned. */
async function startNanokube({ dir = freshDir(), serveArgs = [], pin = '', profile = '' } = {}) {
  const port = await freePort();
  const argv = [
    ...binNodeFlags(),
    ...nodeArgs,
    ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
    cli,
    'serve',
    '--data-dir',
    join(dir, 'data'),
    '--secure-port',
    String(port),
    ...extraServeArgs,
    ...serveArgs,
  ];
  const t0 = performance.now();
  const child = track(
    pin
      ? spawn('taskset', ['-c', pin, process.execPath, ...argv], { stdio: 'ignore', cwd: root })
      : spawn(process.execPath, argv, { stdio: 'ignore', cwd: root }),
  );
  return stack('nanokube', dir, t0, [child], join(dir, 'data', 'kubeconfig'));
}

function stack(side, dir, t0, children, kubeconfigPath) {
  return {
    side,
    dir,
    t0,
    children,
    kubeconfigPath,
    pids: () => children.map((c) => c.pid),
    /** Resident memory of every process of the control plane, MiB. */
    rss: () => children.reduce((sum, c) => sum + (rssMiB(c.pid) || 0), 0),
    /** CPU seconds (user + system) used so far by every process of the control plane. */
    cpu: () => children.reduce((sum, c) => sum + (cpuSeconds(c.pid) || 0), 0),
    alive: () => children.every((c) => c.exitCode === null && c.signalCode === null),
    // The controller manager first, etcd last: as an operator would stop them.
    stop: async () => {
      for (const c of [...children].reverse()) await stopServer(c, 15_000);
    },
  };
}

/** The kubeconfig's credentials once the file exists and is whole (nanokube writes it at start). */
function credentialsOf(s) {
  try {
    return kubeconfigCredentials(s.kubeconfigPath);
  } catch {
    return undefined;
  }
}

/** Polls `path` every 10 ms until it answers 200; seconds since the stack was spawned. */
async function secondsUntil(s, path, timeoutMs = 180_000) {
  const end = performance.now() + timeoutMs;
  for (;;) {
    if (!s.alive()) throw new Error(`${s.side}: a process exited while waiting for ${path}`);
    const creds = credentialsOf(s);
    if (creds !== undefined && (await getOnce(creds, path)).status === 200)
      return (performance.now() - s.t0) / 1000;
    if (performance.now() > end) throw new Error(`${s.side}: no 200 for ${path} in ${timeoutMs} ms`);
    await sleep(10);
  }
}

const answers = (s) => secondsUntil(s, '/api/v1/namespaces/default');
const defaultServiceAccount = (s, ns = 'default') =>
  secondsUntil(s, `/api/v1/namespaces/${ns}/serviceaccounts/default`);

/** Waits 5 s, then until the stack's RSS moved by less than 1 MiB over 2 s (at most 40 s). */
async function settledRss(s) {
  await sleep(5000);
  const end = performance.now() + 40_000;
  let prev = s.rss();
  for (;;) {
    await sleep(2000);
    const now = s.rss();
    if (Math.abs(now - prev) < 1 || performance.now() > end) return now;
    prev = now;
  }
}

/**
 * The settled RSS, then the RSS of the same idle stack `afterS` seconds after `since` (when it
 * first answered): the median of 5 samples a second apart.
 */
async function idleRss(s, since, afterS = 30) {
  const settled = await settledRss(s);
  await sleep(Math.max(0, since + afterS * 1000 - performance.now()));
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(s.rss());
    if (i < 4) await sleep(1000);
  }
  return { settled, idle: median(samples) };
}

/** Samples the stack's summed RSS every `everyMs`; the stopper returns the peak. */
function samplePeak(s, everyMs = 20) {
  let peak = s.rss();
  const timer = setInterval(() => {
    const v = s.rss();
    if (v > peak) peak = v;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(peak, s.rss());
  };
}

// ---------------------------------------------------------------------------------------------
// the client's work

async function ensureNamespace(h2, session, s, ns, { forPods = true } = {}) {
  const r = await h2.send(session, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  if (r.status !== 201) throw new Error(`${s.side}: namespace ${ns}: ${r.status} ${r.text.slice(0, 200)}`);
  // Pods need the namespace's default ServiceAccount (the ServiceAccount admission plugin).
  if (forPods) await defaultServiceAccount(s, ns);
}

const podBody = (name) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'bench' } },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
});

/** Creates `count` pods named `${prefix}N` with `inFlight` requests on one HTTP/2 session. */
async function createPods(h2, session, ns, { count, inFlight = 16, prefix = 'p-' }) {
  const latencies = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++;
        const r = await h2.send(session, 'POST', `/api/v1/namespaces/${ns}/pods`, podBody(`${prefix}${i}`));
        if (r.status !== 201) throw new Error(`create ${prefix}${i}: ${r.status} ${r.text.slice(0, 300)}`);
        latencies.push(r.ms);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: round(count / seconds, 0),
    p50Ms: round(percentile(latencies, 50), 1),
    p99Ms: round(percentile(latencies, 99), 1),
  };
}

/** Every page of `collection` with `limit` per page (no resourceVersion), as client-go's pager reads. */
async function pagedList(h2, session, collection, limit) {
  const t0 = performance.now();
  let cont = '';
  let items = 0;
  do {
    const path = `${collection}?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
    const r = await h2.get(session, path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
    const list = JSON.parse(r.body.toString('utf8'));
    items += list.items.length;
    cont = list.metadata.continue ?? '';
  } while (cont !== '');
  return { ms: performance.now() - t0, items };
}

/**
 * Counts `ns`'s Running pods from a watch from `rv` (resumed from the last resourceVersion when the
 * server ends it); `until(n)` resolves once n are Running at once.
 */
function watchRunning(h2, ns, rv) {
  const session = h2.session();
  const running = new Set();
  let lastRv = rv;
  let stopped = false;
  const waiters = [];
  const check = () => {
    for (const w of waiters) if (running.size >= w.n) w.resolve();
  };
  (async () => {
    while (!stopped) {
      const w = h2.stream(
        session,
        `/api/v1/namespaces/${ns}/pods?watch=1&allowWatchBookmarks=true&resourceVersion=${lastRv}`,
        (line) => {
          const ev = JSON.parse(line.toString('utf8'));
          if (ev.type === 'ERROR') throw new Error(`watch: ${JSON.stringify(ev.object)}`);
          lastRv = ev.object?.metadata?.resourceVersion ?? lastRv;
          if (ev.type === 'BOOKMARK') return;
          const name = ev.object.metadata.name;
          if (ev.type !== 'DELETED' && ev.object.status?.phase === 'Running') running.add(name);
          else running.delete(name);
          check();
        },
      );
      await w.ended.catch(() => undefined);
    }
  })();
  return {
    until: (n) => new Promise((resolve) => (waiters.push({ n, resolve }), check())),
    stop: () => {
      stopped = true;
      session.close();
    },
  };
}

async function readyNodes(h2, session) {
  const r = await h2.get(session, '/api/v1/nodes');
  if (r.status !== 200) return 0;
  return JSON.parse(r.body.toString('utf8')).items.filter((n) =>
    n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
}

// ---------------------------------------------------------------------------------------------
// figures: each returns { upstream, nanokube } records (upstream undefined when not measured)

/**
 * A figure measured several times (`--repeat`): each number of each side is the median of the runs
 * (a ratio within one run, such as the second core's gain, is the median of the runs' ratios), and
 * every run is kept under `runs`.
 */
function medianRuns(runs) {
  const side = (objects) => {
    const present = objects.filter((x) => x !== undefined);
    if (present.length === 0) return undefined;
    const out = {};
    for (const k of Object.keys(present[0])) {
      const values = present.map((x) => x[k]);
      out[k] = values.every((v) => typeof v === 'number') ? round(median(values), 2) : values[0];
    }
    return out;
  };
  return {
    upstream: side(runs.map((r) => r.upstream)),
    nanokube: side(runs.map((r) => r.nanokube)),
    runs,
  };
}

async function both(o, measureUpstream, measureNanokube) {
  const upstream = o.upstreamMissing === undefined ? await measureUpstream() : undefined;
  const nanokube = await measureNanokube();
  return { upstream, nanokube };
}

async function startFigure(o) {
  const rounds = async (startFresh, startAgain) => {
    const fresh = [];
    const restart = [];
    for (let i = 0; i < o.rounds; i++) {
      for (const [list, start] of [
        [fresh, startFresh],
        [restart, startAgain],
      ]) {
        const s = await start(fresh.dir);
        const answer = await answers(s);
        const answeredAt = performance.now();
        const sa = await defaultServiceAccount(s);
        const rss = i === 0 && o.only.has('idle') ? await idleRss(s, answeredAt) : undefined;
        list.push({ answer, sa, idle: rss?.idle, settled: rss?.settled });
        if (list === fresh) fresh.dir = s.dir;
        await s.stop();
      }
    }
    const pick = (list, k) => round(median(list.map((r) => r[k])), 2);
    return {
      freshAnswersS: pick(fresh, 'answer'),
      freshServiceAccountS: pick(fresh, 'sa'),
      restartAnswersS: pick(restart, 'answer'),
      restartServiceAccountS: pick(restart, 'sa'),
      freshIdleMiB: round(fresh[0].idle ?? NaN, 1),
      restartIdleMiB: round(restart[0].idle ?? NaN, 1),
      freshSettledMiB: round(fresh[0].settled ?? NaN, 1),
      restartSettledMiB: round(restart[0].settled ?? NaN, 1),
    };
  };
  return both(
    o,
    () =>
      rounds(
        () => startUpstream(),
        (dir) => startUpstream({ dir }),
      ),
    () =>
      rounds(
        () => startNanokube(),
        (dir) => startNanokube({ dir }),
      ),
  );
}

/** The API server alone, idle: etcd + kube-apiserver against `serve --controllers= --nodes 0`. */
async function idleAloneFigure(o) {
  const measure = async (start) => {
    const s = await start();
    await answers(s);
    const { settled, idle } = await idleRss(s, performance.now());
    await s.stop();
    return { apiServerAloneIdleMiB: round(idle, 1), apiServerAloneSettledMiB: round(settled, 1) };
  };
  return both(
    o,
    () => measure(() => startUpstream({ kcm: false })),
    () => measure(() => startNanokube({ serveArgs: ['--controllers=', '--nodes', '0'] })),
  );
}

async function createsAndListFigure(o) {
  const measure = async (start) => {
    const s = await start();
    await answers(s);
    const h2 = h2ClientFor(s.kubeconfigPath);
    const session = h2.session();
    try {
      await ensureNamespace(h2, session, s, 'bench');
      await createPods(h2, session, 'bench', { count: Math.min(300, o.pods), prefix: 'warm-' });
      const cpu0 = s.cpu();
      const creates = await createPods(h2, session, 'bench', { count: o.pods });
      const cpuMsPerCreate = ((s.cpu() - cpu0) * 1000) / o.pods;
      const total = o.pods + Math.min(300, o.pods);
      const walks = [];
      for (let i = 0; i < 5; i++) {
        const w = await pagedList(h2, session, '/api/v1/namespaces/bench/pods', 500);
        if (w.items !== total) throw new Error(`${s.side}: listed ${w.items} of ${total} pods`);
        walks.push(w.ms);
      }
      return {
        createsPerSecond: creates.perSecond,
        createP50Ms: creates.p50Ms,
        createP99Ms: creates.p99Ms,
        cpuMsPerCreate: round(cpuMsPerCreate, 2),
        listPods: total,
        pagedListMs: round(median(walks), 0),
      };
    } finally {
      session.close();
      await s.stop();
    }
  };
  return both(
    o,
    () => measure(() => startUpstream()),
    () =>
      measure(() =>
        startNanokube({ serveArgs: ['--nodes', '0'], profile: o.profile ? join(o.profile, 'creates') : '' }),
      ),
  );
}

/**
 * Waits for `nodes` Ready nodes, then creates `pods` pods (16 in flight) until a watch has seen
 * them all Running: pods Running/s, CPU per Running pod (with `nodesProcess`, the simulated nodes
 * beside upstream), peak and idle RSS.
 */
async function measurePodPath(s, { pods, nodes }, nodesProcess) {
  await answers(s);
  const h2 = h2ClientFor(s.kubeconfigPath);
  const session = h2.session();
  try {
    const nodesEnd = performance.now() + 300_000;
    while ((await readyNodes(h2, session)) < nodes) {
      if (performance.now() > nodesEnd) throw new Error(`${s.side}: ${nodes} nodes not Ready in 300 s`);
      if (nodesProcess !== undefined && nodesProcess.exitCode !== null)
        throw new Error('nanokube nodes exited');
      await sleep(200);
    }
    await ensureNamespace(h2, session, s, 'bench');
    const idle = await settledRss(s);
    const list = await h2.get(session, '/api/v1/namespaces/bench/pods');
    const running = watchRunning(
      h2,
      'bench',
      JSON.parse(list.body.toString('utf8')).metadata.resourceVersion,
    );
    const peak = samplePeak(s, 100);
    // Upstream's simulated nodes and scheduler run beside it: their CPU counts as nanokube's
    // in-process ones do.
    const cpu = () => s.cpu() + (nodesProcess === undefined ? 0 : cpuSeconds(nodesProcess.pid) || 0);
    const cpu0 = cpu();
    // nanokube's threads: how much of the run its main thread spent on a core and waiting for one.
    const serverPid = s.side === 'nanokube' ? s.pids()[0] : undefined;
    const threads0 = serverPid === undefined ? undefined : threadTimes(serverPid);
    const t0 = performance.now();
    const creates = await createPods(h2, session, 'bench', { count: pods });
    await running.until(pods);
    const seconds = (performance.now() - t0) / 1000;
    const cpuMsPerPod = ((cpu() - cpu0) * 1000) / pods;
    const threads =
      serverPid === undefined
        ? undefined
        : threadShares(serverPid, threads0, threadTimes(serverPid), seconds * 1000);
    running.stop();
    const atEnd = s.rss();
    return {
      pods,
      nodes,
      runningPerSecond: round(pods / seconds, 0),
      cpuMsPerRunningPod: round(cpuMsPerPod, 2),
      createsPerSecond: creates.perSecond,
      idleBeforeMiB: round(idle, 1),
      peakRssMiB: round(peak(), 1),
      rssAtEndMiB: round(atEnd, 1),
      kibPerRunningPod: round(((atEnd - idle) * 1024) / pods, 1),
      ...threads,
    };
  } finally {
    session.close();
  }
}

/** Pods until Running on simulated nodes; with `scale`, the RSS per Running pod too. */
async function podPathFigure(o, { pods, nodes }) {
  const measure = (s, nodesProcess) => measurePodPath(s, { pods, nodes }, nodesProcess);
  return both(
    o,
    async () => {
      const s = await startUpstream();
      await answers(s);
      const nodesProcess = track(
        spawn(process.execPath, [cli, 'nodes', '--kubeconfig', s.kubeconfigPath, '--nodes', String(nodes)], {
          stdio: 'ignore',
          cwd: root,
        }),
      );
      try {
        return await measure(s, nodesProcess);
      } finally {
        await stopServer(nodesProcess, 15_000);
        await s.stop();
      }
    },
    async () => {
      const s = await startNanokube({
        serveArgs: ['--nodes', String(nodes)],
        profile: o.profile ? join(o.profile, `podpath-${pods}`) : '',
      });
      try {
        return await measure(s);
      } finally {
        await s.stop();
      }
    },
  );
}

/** 400 Secrets of ~256 KiB in namespace `bench` (4 writers); their JSON size in MiB. */
async function writeSecrets(h2, session, s, o) {
  await ensureNamespace(h2, session, s, 'bench', { forPods: false });
  const count = o.quick ? 100 : 400;
  const rawBytes = Math.floor(((256 * 1024 - 400) * 3) / 4);
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = next++;
        const r = await h2.send(session, 'POST', '/api/v1/namespaces/bench/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `s-${String(i).padStart(4, '0')}` },
          type: 'Opaque',
          data: { blob: randomBytes(rawBytes).toString('base64') },
        });
        if (r.status !== 201) throw new Error(`${s.side}: secret ${i}: ${r.status} ${r.text.slice(0, 200)}`);
        bytes += Buffer.byteLength(r.text);
      }
    }),
  );
  return { count, dataMiB: bytes / MiB };
}

/** 16 plain LISTs or 16 WatchList informers at once: the stack's RSS growth. */
async function secretsFigure(o, mode) {
  const collection = '/api/v1/namespaces/bench/secrets';
  const measure = async (start) => {
    const s = await start();
    await answers(s);
    const h2 = h2ClientFor(s.kubeconfigPath);
    const admin = h2.session();
    try {
      const { count, dataMiB } = await writeSecrets(h2, admin, s, o);
      // Fill the watch cache before the baseline (nanokube starts a resource's cache on first use).
      await h2.get(admin, `${collection}?resourceVersion=0&limit=1`);
      const baseline = await settledRss(s);
      const peak = samplePeak(s, 10);
      const t0 = performance.now();
      const sessions = Array.from({ length: 16 }, () => h2.session());
      let noBookmark = 0;
      let lastEvent = 0;
      await Promise.all(
        sessions.map(async (session) => {
          if (mode === 'list') {
            const r = await h2.get(session, collection);
            if (r.status !== 200) throw new Error(`${s.side}: GET ${collection}: ${r.status}`);
            const n = JSON.parse(r.body.toString('utf8')).items.length;
            if (n !== count) throw new Error(`${s.side}: listed ${n} of ${count}`);
            return;
          }
          const path = `${collection}?watch=1&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=600`;
          // Synced at the initial-events-end bookmark. kube-apiserver v1.28 sends that bookmark
          // with a watcher's periodic ones, which can come minutes after the last initial event:
          // a watch with every event but no bookmark after 120 s counts as having all its data
          // (and is reported); one the server ends early fails the run.
          let items = 0;
          let w;
          const outcome = await new Promise((resolve, reject) => {
            const timer = setTimeout(() => resolve(items === count ? 'no bookmark' : 'timeout'), 120_000);
            w = h2.stream(session, path, (line) => {
              const ev = JSON.parse(line.toString('utf8'));
              if (ev.type === 'ADDED' && ++items === count)
                lastEvent = Math.max(lastEvent, performance.now());
              else if (
                ev.type === 'BOOKMARK' &&
                ev.object?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true'
              ) {
                clearTimeout(timer);
                resolve('synced');
              } else if (ev.type === 'ERROR') reject(new Error(`${s.side}: ${JSON.stringify(ev.object)}`));
            });
            w.ended.then(
              () => (clearTimeout(timer), resolve('ended')),
              (err) => (clearTimeout(timer), reject(err)),
            );
          });
          if (items !== count || outcome === 'ended' || outcome === 'timeout')
            throw new Error(`${s.side}: a WatchList got ${items} of ${count} events (${outcome})`);
          if (outcome === 'no bookmark') noBookmark++;
        }),
      );
      const syncedS = (performance.now() - t0) / 1000;
      await sleep(2000);
      const peakRss = peak();
      for (const x of sessions) x.close();
      return {
        secrets: count,
        dataMiB: round(dataMiB, 1),
        baselineMiB: round(baseline, 1),
        peakMiB: round(peakRss, 1),
        growthMiB: round(peakRss - baseline, 1),
        allSyncedS: round(syncedS, 2),
        ...(mode === 'watchlist'
          ? { allEventsS: round((lastEvent - t0) / 1000, 2), withoutInitialEventsEndBookmark: noBookmark }
          : {}),
      };
    } finally {
      admin.close();
      await s.stop();
    }
  };
  const gates = mode === 'watchlist' ? 'WatchList=true' : '';
  return both(
    o,
    () => measure(() => startUpstream({ kcm: false, gates })),
    () =>
      measure(() =>
        startNanokube({
          serveArgs: ['--controllers=', '--nodes', '0', ...(gates ? [`--feature-gates=${gates}`] : [])],
        }),
      ),
  );
}

/** nanokube's creates/s and pod path, pinned to one core and free to use both. */
async function coresFigure(o) {
  const measure = async (pin) => {
    const s = await startNanokube({ serveArgs: ['--nodes', '0'], pin });
    try {
      await answers(s);
      const h2 = h2ClientFor(s.kubeconfigPath);
      const session = h2.session();
      await ensureNamespace(h2, session, s, 'bench');
      await createPods(h2, session, 'bench', { count: Math.min(300, o.pods), prefix: 'warm-' });
      const r = await createPods(h2, session, 'bench', { count: o.pods });
      session.close();
      return r;
    } finally {
      await s.stop();
    }
  };
  const one = await measure('0');
  const two = await measure('');
  // The whole pod path too (`serve --nodes N`: the components on a thread of their own from 100
  // nodes), pinned and free.
  const podPath = async (pin) => {
    const s = await startNanokube({ serveArgs: ['--nodes', String(o.nodes)], pin });
    try {
      return await measurePodPath(s, { pods: o.pods, nodes: o.nodes });
    } finally {
      await s.stop();
    }
  };
  const onePods = await podPath('0');
  const twoPods = await podPath('');
  return {
    nanokube: {
      oneCoreCreatesPerSecond: one.perSecond,
      twoCoresCreatesPerSecond: two.perSecond,
      oneCoreP99Ms: one.p99Ms,
      twoCoresP99Ms: two.p99Ms,
      secondCoreGain: round(two.perSecond / one.perSecond, 2),
      pods: o.pods,
      nodes: o.nodes,
      oneCoreRunningPerSecond: onePods.runningPerSecond,
      twoCoresRunningPerSecond: twoPods.runningPerSecond,
      podPathSecondCoreGain: round(twoPods.runningPerSecond / onePods.runningPerSecond, 2),
    },
  };
}

/** 100 clients connecting at once, each a new TLS connection and GET /version. */
async function handshakesFigure(o) {
  const measure = async (s) => {
    try {
      await answers(s);
      const creds = kubeconfigCredentials(s.kubeconfigPath);
      const url = new URL(creds.url);
      const one = () =>
        new Promise((resolve) => {
          const t0 = performance.now();
          let handshake = NaN;
          const req = request(
            {
              host: url.hostname,
              port: url.port,
              path: '/version',
              agent: false,
              ca: creds.ca,
              cert: creds.cert,
              key: creds.key,
            },
            (r) => {
              r.resume();
              r.on('end', () =>
                resolve({ handshake, answer: performance.now() - t0, ok: r.statusCode === 200 }),
              );
            },
          );
          req.on('socket', (sock) => sock.on('secureConnect', () => (handshake = performance.now() - t0)));
          req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
          req.on('error', () => resolve({ handshake, answer: NaN, ok: false }));
          req.end();
        });
      const results = await Promise.all(Array.from({ length: 100 }, one));
      const hs = results.map((r) => r.handshake).sort((a, b) => a - b);
      const an = results.map((r) => r.answer).sort((a, b) => a - b);
      return {
        clients: 100,
        failed: results.filter((r) => !r.ok).length,
        handshakeMedianMs: round(median(hs), 0),
        handshakeMaxMs: round(hs[hs.length - 1], 0),
        answerMaxMs: round(an[an.length - 1], 0),
      };
    } finally {
      await s.stop();
    }
  };
  return both(
    o,
    async () => measure(await startUpstream({ kcm: false })),
    async () => measure(await startNanokube({ serveArgs: ['--controllers=', '--nodes', '0'] })),
  );
}

// ---------------------------------------------------------------------------------------------
// the report

/** Rows of the summary: [figure, upstream, nanokube, ratio, goal, met?]. */
function rows(r) {
  const out = [];
  // A goal on the ratio needs both sides; an absolute one (`absolute`) only nanokube's figure.
  const row = (name, u, n, unit, { ratio, goal, better, absolute = false }) => {
    const value = u === undefined || n === undefined ? undefined : ratio(u, n);
    const judged = absolute ? n !== undefined && better(value, n) : value !== undefined && better(value, n);
    const met =
      goal === '' || (absolute ? n === undefined : value === undefined) ? '' : judged ? 'met' : 'not met';
    out.push([
      name,
      u === undefined ? '—' : `${u}${unit}`,
      n === undefined ? '—' : `${n}${unit}`,
      value === undefined ? '—' : `${Number(value.toPrecision(value >= 1 ? 3 : 2))}`,
      goal,
      met,
    ]);
  };
  const faster = (goal) => ({ ratio: (u, n) => u / n, goal: `≥ ${goal}× faster`, better: (v) => v >= goal });
  const rate = (goal) => ({ ratio: (u, n) => n / u, goal: `≥ ${goal}×`, better: (v) => v >= goal });
  const share = (goal) => ({ ratio: (u, n) => n / u, goal: `≤ ${goal}`, better: (v) => v <= goal });
  // A figure the issue sets no goal for, measured to explain the others.
  const measured = { ratio: (u, n) => n / u, goal: '', better: () => true, absolute: true };
  const s = r.start;
  if (s) {
    row(
      'ready, fresh state: first authenticated answer',
      s.upstream?.freshAnswersS,
      s.nanokube?.freshAnswersS,
      ' s',
      faster(20),
    );
    row(
      'ready, fresh state: default ServiceAccount',
      s.upstream?.freshServiceAccountS,
      s.nanokube?.freshServiceAccountS,
      ' s',
      faster(20),
    );
    row(
      'ready, restart: first authenticated answer',
      s.upstream?.restartAnswersS,
      s.nanokube?.restartAnswersS,
      ' s',
      faster(20),
    );
    row(
      'ready, restart: default ServiceAccount',
      s.upstream?.restartServiceAccountS,
      s.nanokube?.restartServiceAccountS,
      ' s',
      faster(20),
    );
    if (!Number.isNaN(s.nanokube?.freshIdleMiB)) {
      row(
        'idle RSS once settled (5–7 s), first start',
        s.upstream?.freshSettledMiB,
        s.nanokube?.freshSettledMiB,
        ' MiB',
        share(0.2),
      );
      row(
        'idle RSS, controllers on, first start (30 s idle)',
        s.upstream?.freshIdleMiB,
        s.nanokube?.freshIdleMiB,
        ' MiB',
        share(0.2),
      );
      row(
        'idle RSS once settled (5–7 s), restart',
        s.upstream?.restartSettledMiB,
        s.nanokube?.restartSettledMiB,
        ' MiB',
        share(0.2),
      );
      row(
        'idle RSS, controllers on, restart (30 s idle)',
        s.upstream?.restartIdleMiB,
        s.nanokube?.restartIdleMiB,
        ' MiB',
        share(0.2),
      );
    }
  }
  const a = r.idleAlone;
  if (a) {
    row(
      'idle RSS, API server alone, once settled (5–7 s)',
      a.upstream?.apiServerAloneSettledMiB,
      a.nanokube?.apiServerAloneSettledMiB,
      ' MiB',
      share(0.2),
    );
    row(
      'idle RSS, API server alone (30 s idle)',
      a.upstream?.apiServerAloneIdleMiB,
      a.nanokube?.apiServerAloneIdleMiB,
      ' MiB',
      share(0.2),
    );
  }
  const c = r.creates;
  if (c) {
    row(
      'pod creates/s, 16 in flight, one HTTP/2 connection',
      c.upstream?.createsPerSecond,
      c.nanokube?.createsPerSecond,
      '/s',
      rate(3),
    );
    row('create latency p99', c.upstream?.createP99Ms, c.nanokube?.createP99Ms, ' ms', {
      ratio: (u, n) => n / u,
      goal: '< 50 ms',
      better: (_, n) => n < 50,
      absolute: true,
    });
    row(
      'CPU per create (control plane)',
      c.upstream?.cpuMsPerCreate,
      c.nanokube?.cpuMsPerCreate,
      ' ms',
      measured,
    );
    row(
      `paginated LIST of ${c.nanokube?.listPods} pods, 500 per page`,
      c.upstream?.pagedListMs,
      c.nanokube?.pagedListMs,
      ' ms',
      share(0.5),
    );
  }
  const p = r.podpath;
  if (p) {
    row(
      `${p.nanokube?.pods} pods until Running, ${p.nanokube?.nodes} nodes`,
      p.upstream?.runningPerSecond,
      p.nanokube?.runningPerSecond,
      ' pods/s',
      rate(5),
    );
    row('peak RSS during that run', p.upstream?.peakRssMiB, p.nanokube?.peakRssMiB, ' MiB', share(0.33));
    row(
      'CPU per Running pod (control plane + simulated nodes)',
      p.upstream?.cpuMsPerRunningPod,
      p.nanokube?.cpuMsPerRunningPod,
      ' ms',
      measured,
    );
    const n = p.nanokube;
    if (n?.mainThreadOnCore !== undefined) {
      // Not a goal: why the pod path's rate is what it is on this machine.
      out.push([
        "nanokube's main thread during that run: on a core / waiting for one; other threads' cores",
        '—',
        `${n.mainThreadOnCore} / ${n.mainThreadWaiting}; ${n.otherThreadsCores}`,
        '—',
        '',
        '',
      ]);
    }
  }
  const sc = r.scale;
  if (sc)
    row(
      `server RSS per Running pod at ${sc.nanokube?.pods} pods`,
      sc.upstream?.kibPerRunningPod,
      sc.nanokube?.kibPerRunningPod,
      ' KiB',
      share(0.33),
    );
  const l = r.lists;
  if (l)
    row('16 plain LISTs of the Secrets: RSS growth', l.upstream?.growthMiB, l.nanokube?.growthMiB, ' MiB', {
      ratio: (u, n) => n / u,
      goal: `≤ 3× the data (${round(3 * (l.nanokube?.dataMiB ?? NaN), 0)} MiB)`,
      better: (_, n) => n <= 3 * l.nanokube.dataMiB,
      absolute: true,
    });
  const w = r.watchlist;
  if (w)
    row('16 WatchList informers: RSS growth', w.upstream?.growthMiB, w.nanokube?.growthMiB, ' MiB', {
      ratio: (u, n) => n / u,
      goal: '≤ +150 MiB',
      better: (_, n) => n <= 150,
      absolute: true,
    });
  const k = r.cores?.nanokube;
  if (k)
    out.push([
      'creates/s from the second core (nanokube alone: one core → two)',
      '—',
      `${k.oneCoreCreatesPerSecond}/s → ${k.twoCoresCreatesPerSecond}/s`,
      `${k.secondCoreGain}`,
      '≥ 1.7×',
      k.secondCoreGain >= 1.7 ? 'met' : 'not met',
    ]);
  if (k?.podPathSecondCoreGain !== undefined)
    out.push([
      `pods Running/s from the second core (nanokube alone, ${k.pods} pods on ${k.nodes} nodes: one core → two)`,
      '—',
      `${k.oneCoreRunningPerSecond}/s → ${k.twoCoresRunningPerSecond}/s`,
      `${k.podPathSecondCoreGain}`,
      '≥ 1.7×',
      k.podPathSecondCoreGain >= 1.7 ? 'met' : 'not met',
    ]);
  const h = r.handshakes;
  if (h)
    row(
      '100 clients at once: slowest TLS handshake',
      h.upstream?.handshakeMaxMs,
      h.nanokube?.handshakeMaxMs,
      ' ms',
      {
        ratio: (u, n) => n / u,
        goal: '< 1000 ms',
        better: (_, n) => n < 1000,
        absolute: true,
      },
    );
  return out;
}

function printTable(table, env, o) {
  process.stdout.write(
    `\n| figure | upstream | nanokube | ratio | goal | |\n| --- | --- | --- | --- | --- | --- |\n` +
      `${table.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\n` +
      `Ratios: times and rates as how many times upstream's; memory as nanokube's share of upstream's.\n` +
      `${o.upstreamMissing !== undefined ? `Upstream not measured: ${o.upstreamMissing}\n` : ''}` +
      `${(env.repeat ?? 1) > 1 ? `Creates, the pod path and the second core: the median of ${env.repeat} runs each.\n` : ''}` +
      `(${env.node}, ${env.cpu}, load ${env.loadavgAtStart.join(' ')} → ${env.loadavgAtEnd.join(' ')}; written to ${o.out})\n`,
  );
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.report !== undefined) {
    // The table again from an earlier run's results (the report's format changed, not the figures).
    const earlier = JSON.parse(readFileSync(o.report, 'utf8'));
    const table = rows(earlier.results);
    writeFileSync(o.report, await formatJson(o.report, { ...earlier, table }));
    printTable(table, earlier.env, { out: o.report });
    return;
  }
  o.upstreamMissing = o.upstream ? upstreamMissing() : 'not asked (--no-upstream)';
  if (o.upstreamMissing !== undefined) log(`upstream not measured: ${o.upstreamMissing}`);
  const results = {};
  const env = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
    loadavgAtStart: loadavg().map((x) => round(x, 2)),
    repeat: o.repeat,
    upstream:
      o.upstreamMissing ?? `kube-apiserver and kube-controller-manager from ${refDir}/bin, ${etcdBin}`,
  };
  const run = async (name, f, repeat = 1) => {
    log(`${name}…`);
    const t0 = performance.now();
    const runs = [];
    for (let i = 0; i < repeat; i++) {
      runs.push(await f());
      if (repeat > 1) log(`${name}, run ${i + 1} of ${repeat}: ${JSON.stringify(runs[i])}`);
    }
    results[name] = repeat === 1 ? runs[0] : medianRuns(runs);
    log(`${name} (${round((performance.now() - t0) / 1000, 0)} s): ${JSON.stringify(results[name])}`);
  };
  try {
    if (o.only.has('start') || o.only.has('idle')) await run('start', () => startFigure(o));
    if (o.only.has('idle')) await run('idleAlone', () => idleAloneFigure(o));
    if (o.only.has('creates') || o.only.has('list'))
      await run('creates', () => createsAndListFigure(o), o.repeat);
    if (o.only.has('podpath'))
      await run('podpath', () => podPathFigure(o, { pods: o.pods, nodes: o.nodes }), o.repeat);
    if (o.only.has('lists')) await run('lists', () => secretsFigure(o, 'list'));
    if (o.only.has('watchlist')) await run('watchlist', () => secretsFigure(o, 'watchlist'));
    if (o.only.has('cores')) await run('cores', () => coresFigure(o), o.repeat);
    if (o.only.has('handshakes')) await run('handshakes', () => handshakesFigure(o));
    if (o.only.has('scale'))
      await run('scale', () =>
        podPathFigure(o, { pods: o.quick ? 2000 : o.scalePods, nodes: o.quick ? 20 : o.scaleNodes }),
      );
  } finally {
    for (const c of live) c.kill('SIGKILL');
    cleanupTempDirs();
  }
  env.loadavgAtEnd = loadavg().map((x) => round(x, 2));
  const table = rows(results);
  writeFileSync(
    o.out,
    await formatJson(o.out, {
      env,
      options: { ...o, only: [...o.only], nodeArgs, serveArgs: extraServeArgs },
      results,
      table,
    }),
  );
  printTable(table, env, o);
}

main().catch((err) => {
  for (const child of live) child.kill('SIGKILL');
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});

// Interrupted (Ctrl-C, `timeout`): the servers this run spawned go too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of live) child.kill('SIGKILL');
    cleanupTempDirs();
    process.exit(130);
  });
}
