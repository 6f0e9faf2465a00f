// Shared by the benchmarks: small helpers, the `nanokube serve` process (spawn, ready line, stop)
// and HTTPS and HTTP/2 clients with the kubeconfig's admin certificate. Against the compiled server in dist/.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect as h2connect } from 'node:http2';
import { createServer } from 'node:net';
import { Agent, request } from 'node:https';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parse as parseYaml } from 'yaml';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const cli = join(root, 'dist', 'nanokube.js');

let shebangFlags;
/**
 * The node/V8 flags of the built bin's shebang (`#!/usr/bin/env -S node FLAGS`), which `npm start`
 * repeats: the benches start the server with exactly these, as a user's `nanokube serve` runs.
 */
export function binNodeFlags() {
  if (shebangFlags !== undefined) return shebangFlags;
  const first = readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\/usr\/bin\/env -S node((?: --[^\s]+)*)$/.exec(first);
  if (!m) throw new Error(`${cli}: unexpected first line ${JSON.stringify(first)}`);
  shebangFlags = m[1].split(' ').filter((f) => f !== '');
  return shebangFlags;
}

// ---------------------------------------------------------------------------------------------
// small helpers

export const median = (xs) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

export const tempDirs = [];
export function freshDir() {
  const d = mkdtempSync(join(tmpdir(), 'nanokube-bench-'));
  tempDirs.push(d);
  return d;
}

/** Resident set size of a process in MiB (Linux /proc), or NaN elsewhere. */
export function rssMiB(pid, field = 'VmRSS') {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (NaN where unavailable). */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Each thread of process `pid` with the nanoseconds it has run on a core and waited runnable for
 * one, from /proc/PID/task/TID/schedstat (Linux with schedstats; an empty map elsewhere).
 */
export function threadTimes(pid) {
  const times = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      times.set(Number(tid), { run, wait });
    } catch {
      // The thread ended in between.
    }
  }
  return times;
}

/**
 * Between two threadTimes readings `ms` apart: the share of that time the main thread (tid `pid`)
 * ran on a core and waited for one, the cores the other threads used together, and the busiest
 * other thread's share; undefined without readings.
 */
export function threadShares(pid, before, after, ms) {
  const main = after.get(pid);
  const mainBefore = before.get(pid);
  if (main === undefined || mainBefore === undefined || ms <= 0) return undefined;
  const ns = ms * 1e6;
  let others = 0;
  let busiest = 0;
  for (const [tid, t] of after) {
    if (tid === pid) continue;
    const share = (t.run - (before.get(tid)?.run ?? 0)) / ns;
    others += share;
    busiest = Math.max(busiest, share);
  }
  return {
    mainThreadOnCore: round((main.run - mainBefore.run) / ns, 2),
    mainThreadWaiting: round((main.wait - mainBefore.wait) / ns, 2),
    otherThreadsCores: round(others, 2),
    busiestOtherThreadOnCore: round(busiest, 2),
  };
}

// ---------------------------------------------------------------------------------------------
// the server process

export const live = new Set();

/**
 * Spawns `nanokube serve` on `dataDir` and resolves once its ready line is printed, with the
 * figure the process reports and the wall time from spawn to the line.
 */
export function startServer(dataDir, { nodeArgs = [], serveArgs = [], timeoutMs = 30_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      // The V8 flags the bin's shebang and `npm start` give the server, then the bench's own.
      [
        ...binNodeFlags(),
        ...nodeArgs,
        cli,
        'serve',
        '--data-dir',
        dataDir,
        '--secure-port',
        '0',
        ...serveArgs,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    live.add(child);
    child.on('exit', () => live.delete(child));
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server not ready within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /nanokube ready in ([\d.]+)s: serving (https:\/\/\S+)/.exec(out);
      const k = /export KUBECONFIG=(\S+)/.exec(out);
      if (m && k) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolvePromise({
          child,
          pid: child.pid,
          readySeconds: Number(m[1]),
          wallMs: performance.now() - t0,
          url: m[2],
          kubeconfigPath: k[1],
        });
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited before ready (code ${code}, signal ${signal})\nstderr: ${err}`));
    });
  });
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export const freePort = () =>
  new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });

/** SIGTERM and wait for exit (SIGKILL after `graceMs`). */
export function stopServer(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------------------------
// HTTPS client (admin client certificate from the kubeconfig, keep-alive agent)

export function clientFor(server, maxSockets) {
  const kc = parseYaml(readFileSync(server.kubeconfigPath, 'utf8'));
  const b64 = (s) => Buffer.from(s, 'base64').toString('utf8');
  const cluster = kc.clusters[0].cluster;
  const user = kc.users[0].user;
  const agent = new Agent({
    keepAlive: true,
    maxSockets,
    ca: b64(cluster['certificate-authority-data']),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  });
  const url = new URL(cluster.server);
  /** Resolves with { status, text, ms }; rejects on network errors or after `timeoutMs`. */
  const send = (method, path, body, timeoutMs = 60_000) =>
    new Promise((res, rej) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { accept: 'application/json' };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const t0 = performance.now();
      const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (r) => {
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () =>
          res({
            status: r.statusCode,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - t0,
          }),
        );
        r.on('error', rej);
      });
      req.setTimeout(timeoutMs, () =>
        req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
      );
      req.on('error', rej);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  /**
   * A long-running GET (a watch) whose body is handed over line by line; `stop()` ends it. The
   * promise `ended` settles when the server ends the stream or the request fails.
   */
  const stream = (path, onLine) => {
    let req;
    const ended = new Promise((res, rej) => {
      req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'GET',
          path,
          headers: { accept: 'application/json' },
          agent,
        },
        (r) => {
          if (r.statusCode !== 200) rej(new Error(`GET ${path}: ${r.statusCode}`));
          let pending = '';
          r.setEncoding('utf8');
          r.on('data', (c) => {
            pending += c;
            let nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
              const line = pending.slice(0, nl);
              pending = pending.slice(nl + 1);
              if (line.trim() !== '') onLine(line);
            }
          });
          r.on('end', res);
          r.on('error', rej);
        },
      );
      req.on('error', rej);
      req.end();
    });
    ended.catch(() => undefined);
    return { ended, stop: () => req.destroy() };
  };
  return { send, stream, close: () => agent.destroy() };
}

/** Removes the temp dirs made by freshDir. */
export function cleanupTempDirs() {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** JSON text as the repository's prettier would write it (plain JSON.stringify when prettier is absent). */
export async function formatJson(file, value) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(text, { ...config, filepath: file });
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP/2 client (as client-go talks to kube-apiserver) and a line splitter for watch streams

/**
 * One HTTPS GET on a new connection (no agent: each poll pays a whole TLS handshake, as a client
 * starting up does) with `creds` (kubeconfigCredentials' shape): { status, text }, status 0 on any
 * error or after `timeoutMs`.
 */
export function getOnce(creds, path, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const url = new URL(creds.url);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent: false,
        ca: creds.ca,
        cert: creds.cert,
        key: creds.key,
        headers: { accept: 'application/json' },
      },
      (r) => {
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode, text: Buffer.concat(chunks).toString() }));
        r.on('error', () => resolve({ status: 0, text: '' }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end();
  });
}

/** The server URL and the admin credentials (CA, client certificate, key) of a kubeconfig. */
export function kubeconfigCredentials(kubeconfigPath) {
  const kc = parseYaml(readFileSync(kubeconfigPath, 'utf8'));
  const b64 = (s) => Buffer.from(s, 'base64').toString('utf8');
  const cluster = kc.clusters[0].cluster;
  const user = kc.users[0].user;
  return {
    url: cluster.server,
    ca: b64(cluster['certificate-authority-data']),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  };
}

/**
 * Splits a byte stream into lines, scanning each byte once (a string `pending += chunk` rescanned
 * per chunk costs quadratic time on 256 KiB lines). Returns `push(chunk)`; `onLine` gets each
 * non-empty line as a Buffer.
 */
export function lineSplitter(onLine) {
  let parts = [];
  return (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece]);
      parts = [];
      if (line.length > 0) onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  };
}

/**
 * HTTP/2 sessions to the server with the kubeconfig's admin certificate. Flow-control windows as
 * Go's http2 transport sets them (4 MiB per stream, 1 GiB per connection), so a large list is not
 * throttled by node's 64 KiB default.
 */
export function h2ClientFor(kubeconfigPath) {
  const creds = kubeconfigCredentials(kubeconfigPath);
  const session = () => {
    const s = h2connect(creds.url, {
      ca: creds.ca,
      cert: creds.cert,
      key: creds.key,
      settings: { initialWindowSize: 4 << 20, enablePush: false },
    });
    s.on('connect', () => s.setLocalWindowSize(1 << 30));
    s.on('error', () => undefined);
    return s;
  };
  /** GET with the whole body: resolves with { status, body (Buffer), ms }. */
  const get = (s, path, headers = {}) =>
    new Promise((res, rej) => {
      const t0 = performance.now();
      const req = s.request({ ':method': 'GET', ':path': path, accept: 'application/json', ...headers });
      const chunks = [];
      let status = 0;
      req.on('response', (h) => (status = h[':status']));
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => res({ status, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      req.on('error', rej);
      req.end();
    });
  /** A request whose body is sent and answered as a string: resolves with { status, text, ms }. */
  const send = (s, method, path, body, contentType = 'application/json', headers = {}) =>
    new Promise((res, rej) => {
      const t0 = performance.now();
      const req = s.request({
        ':method': method,
        ':path': path,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': contentType } : {}),
        ...headers,
      });
      const chunks = [];
      let status = 0;
      req.on('response', (h) => (status = h[':status']));
      req.on('data', (c) => chunks.push(c));
      req.on('end', () =>
        res({ status, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }),
      );
      req.on('error', rej);
      req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    });
  /**
   * A watch: `onLine` gets every line (a Buffer); `onResponse` the status. `ended` settles when the
   * stream ends (resolves) or fails (rejects); `stop()` cancels it.
   */
  const stream = (s, path, onLine, onResponse) => {
    let req;
    const ended = new Promise((res, rej) => {
      req = s.request({ ':method': 'GET', ':path': path, accept: 'application/json' });
      req.on('response', (h) => {
        onResponse?.(h[':status']);
        if (h[':status'] !== 200) rej(new Error(`GET ${path}: ${h[':status']}`));
      });
      req.on('data', lineSplitter(onLine));
      req.on('end', res);
      req.on('close', res);
      req.on('error', rej);
      req.end();
    });
    ended.catch(() => undefined);
    return { ended, stop: () => req.close() };
  };
  return { session, get, send, stream, url: creds.url };
}

/** Resets the kernel's peak-RSS mark (VmHWM) of a process to its current RSS (Linux; false elsewhere). */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every `everyMs` until it returns true; fails after `timeoutMs`. */
export async function until(what, check, { everyMs = 1000, timeoutMs = 30 * 60_000 } = {}) {
  const end = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

export async function json(client, method, path, body) {
  const r = await client.send(method, path, body, 120_000);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text);
}

/** Samples the server's RSS every 250 ms; returns a stopper giving the peak. */
export function sampleRss(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    const v = rssMiB(pid);
    if (v > peak) peak = v;
  }, 250);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMiB(pid, 'VmHWM') || 0);
  };
}

/**
 * POSTs `count` objects (`body()` each time, with a generateName) to `path` with `concurrency`
 * requests in flight; a generated name taken already (one in a few thousand: upstream's
 * ServerTimeout) is retried. Returns the sorted latencies, the wall time and the failures.
 */
export async function createConcurrently(client, { path, body, count, concurrency }) {
  const latencies = [];
  const failures = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        for (let attempt = 0; attempt < 5; attempt++) {
          const r = await client.send('POST', path, body());
          if (r.status === 201) latencies.push(r.ms);
          else if (r.status === 500 && r.text.includes('"ServerTimeout"') && attempt < 4) continue;
          else failures.push(`${r.status} ${r.text.slice(0, 200)}`);
          break;
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - t0, failures };
}

/**
 * Flags `--some-name VALUE` onto a copy of `defaults` (key `someName`): a number where the default
 * is a number, else the string. An unknown flag or a missing value throws.
 */
export function parseFlags(argv, defaults) {
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const key = flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!flag.startsWith('--') || !(key in defaults)) throw new Error(`unknown flag ${flag}`);
    const v = argv[++i];
    if (v === undefined) throw new Error(`flag needs an argument: ${flag}`);
    o[key] = typeof defaults[key] === 'number' ? Number(v) : v;
  }
  return o;
}

/** The machine a result was measured on. */
export function benchEnv() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
    loadavgAtStart: loadavg().map((x) => round(x, 2)),
  };
}
