/**
 * Profiling on a unix-domain socket (AM-20; upstream routes.DebugSocket from #114191, served by
 * kube-apiserver v1.27 at --debug-socket-path). The socket has no authentication or authorization
 * (upstream: "unprotected"): who may connect is decided by the file's permissions, which are the
 * owner's only. It is never served on the TCP port. Go's pprof paths, with V8's formats:
 *
 *   /debug/pprof                  → 302 to /debug/pprof/
 *   /debug/pprof/                 an index of the profiles
 *   /debug/pprof/profile?seconds=N  a CPU profile of N seconds (default 30) as a .cpuprofile
 *                                 (Chrome DevTools' JSON), taken through a node:inspector session
 *   /debug/pprof/heap             a V8 heap snapshot (.heapsnapshot)
 *   /debug/pprof/cmdline          the command line, NUL-separated
 *   /debug/flags, /debug/flags/v  PUT a number to /debug/flags/v to change the log verbosity
 */
import { chmod, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setMaxListeners } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../util/log.js';

const indexPage = `<html>
<head>
<title>/debug/pprof/</title>
</head>
<body>
/debug/pprof/<br>
<br>
Types of profiles available:
<table>
<thead><td>Count</td><td>Profile</td></thead>
<tr><td></td><td><a href='heap'>heap</a></td></tr>
</table>
<a href="profile">CPU profile</a> (V8 .cpuprofile; ?seconds=N, default 30)
<br>
<a href="cmdline">cmdline</a>
<br>
</body>
</html>
`;

/** Waits `ms`, or less when the signal aborts (the profile is then cut short, not lost). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A CPU profile of `seconds` through the inspector (Profiler domain), as Chrome DevTools'
 * `.cpuprofile` JSON. One at a time, as Go's runtime allows one CPU profile.
 */
export class CpuProfiler {
  #running = false;

  async profile(seconds: number, signal: AbortSignal): Promise<unknown> {
    if (this.#running) throw new Error('cpu profiling already in use');
    this.#running = true;
    try {
      // Loaded here, not at start-up: node:inspector and node:v8 cost every start about 5 ms.
      const { Session } = await import('node:inspector/promises');
      const session = new Session();
      try {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        await sleep(seconds * 1000, signal);
        const { profile } = await session.post('Profiler.stop');
        return profile;
      } finally {
        session.disconnect();
      }
    } finally {
      this.#running = false;
    }
  }
}

function text(res: ServerResponse, code: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(code, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

export interface DebugSocketOptions {
  readonly path: string;
  readonly log: Logger;
  /** Changes the log verbosity (`-v`); absent: /debug/flags/v is not served. */
  readonly setVerbosity?: (v: number) => void;
}

const flagsIndex = (flags: readonly string[]): string => `<html>
<head>
<title>/debug/flags/</title>
</head>
<body>
/debug/flags/<br>
<br>
flags:<br>
<table>
${flags.map((f) => `<tr>${f}<br>`).join('\n')}
</table>
</body>
</html>
`;

/** Reads a request body (the few bytes a flag's value takes). */
async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > 4096) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class DebugSocket {
  readonly #o: DebugSocketOptions;
  readonly #cpu = new CpuProfiler();
  readonly #closing = new AbortController();
  #server: Server | undefined;

  constructor(o: DebugSocketOptions) {
    this.#o = o;
    setMaxListeners(0, this.#closing.signal);
  }

  get path(): string {
    return this.#o.path;
  }

  /** Listens at the path (a stale socket file is removed first, as upstream's Run does). */
  async listen(): Promise<void> {
    await rm(this.#o.path, { force: true });
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        this.#o.log.error(`debug socket: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent) text(res, 500, 'internal error\n');
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#o.path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    await chmod(this.#o.path, 0o600);
  }

  async close(): Promise<void> {
    this.#closing.abort();
    const server = this.#server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await rm(this.#o.path, { force: true });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    switch (url.pathname) {
      case '/debug/pprof':
        res.writeHead(302, { location: '/debug/pprof/', 'content-type': 'text/html; charset=utf-8' });
        res.end('<a href="/debug/pprof/">Found</a>.\n\n');
        return;
      case '/debug/pprof/':
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'x-content-type-options': 'nosniff',
        });
        res.end(indexPage);
        return;
      case '/debug/pprof/cmdline':
        text(res, 200, process.argv.join('\x00'));
        return;
      case '/debug/pprof/profile':
        return this.#profile(req, res, url);
      case '/debug/flags':
      case '/debug/flags/':
        if (this.#o.setVerbosity === undefined) break;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(flagsIndex(['v']));
        return;
      case '/debug/flags/v':
        if (this.#o.setVerbosity === undefined) break;
        return this.#setVerbosity(req, res, this.#o.setVerbosity);
      case '/debug/pprof/heap':
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-content-type-options': 'nosniff',
          'content-disposition': 'attachment; filename="heap.heapsnapshot"',
        });
        await pipeline((await import('node:v8')).getHeapSnapshot(), res);
        return;
      default:
        if (url.pathname.startsWith('/debug/pprof/')) {
          text(res, 404, 'Unknown profile\n');
          return;
        }
    }
    text(res, 404, '404 page not found\n');
  }

  /** upstream StringFlagPutHandler(GlogSetter): PUT the level as the body. */
  async #setVerbosity(req: IncomingMessage, res: ServerResponse, set: (v: number) => void): Promise<void> {
    if (req.method !== 'PUT') {
      text(res, 406, 'unsupported http method\n');
      return;
    }
    let value: string;
    try {
      value = await bodyOf(req);
    } catch (err) {
      text(res, 400, `error reading request body: ${err instanceof Error ? err.message : String(err)}\n`);
      return;
    }
    // klog.Level.Set: strconv.ParseInt(value, 10, 32).
    const n = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) {
      const why = Number.isNaN(n) ? 'invalid syntax' : 'value out of range';
      text(
        res,
        400,
        `failed set klog.logging.verbosity ${value}: strconv.ParseInt: parsing ${JSON.stringify(value)}: ${why}\n`,
      );
      return;
    }
    set(n);
    text(res, 200, `successfully set klog.logging.verbosity to ${value}\n`);
  }

  async #profile(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // Go's pprof.Profile: a seconds value that is not a positive integer means 30.
    const raw = url.searchParams.get('seconds') ?? '';
    const parsed = /^[+-]?\d+$/.test(raw) ? Number(raw) : 0;
    const seconds = parsed > 0 ? parsed : 30;
    const done = new AbortController();
    const cut = (): void => done.abort();
    // The profile ends early when the client goes away or the server shuts down.
    res.once('close', cut);
    this.#closing.signal.addEventListener('abort', cut, { once: true });
    // A client already gone (before the listener was there) takes no profile.
    if (req.socket.destroyed) cut();
    try {
      let profile: unknown;
      try {
        profile = await this.#cpu.profile(seconds, done.signal);
      } catch (err) {
        text(
          res,
          500,
          `Could not enable CPU profiling: ${err instanceof Error ? err.message : String(err)}\n`,
        );
        return;
      }
      if (req.destroyed || res.destroyed) return;
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'attachment; filename="profile.cpuprofile"',
      });
      res.end(JSON.stringify(profile));
    } finally {
      res.off('close', cut);
      this.#closing.signal.removeEventListener('abort', cut);
    }
  }
}
