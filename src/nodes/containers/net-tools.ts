/**
 * The network tools of the images the simulator knows, run in a simulated container over the
 * simulated cluster network (shell-net.ts): OpenBSD `nc` and `curl` of the agnhost image, and
 * busybox's `nc` and `wget` (busybox, alpine, agnhost). Each reports success and failure in its
 * own words and exit codes; a wait (a connection that times out, `nc -w`'s idle wait) advances
 * the container's virtual time.
 */
import { STATUS_CODES } from 'node:http';
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import { NetFailure } from './shell-net.js';
import type { ShellNet } from './shell-net.js';
import { ShellUnsupported } from './shell-parse.js';
import { runDnsTool } from './dns-tools.js';
import type { DnsTool } from './dns-tools.js';

export interface NetToolResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  /** Virtual time the command took (ms). */
  readonly elapsedMs: number;
  /** A file the command wrote (`curl -o`, `wget -O`). */
  readonly file?: { readonly path: string; readonly content: string };
}

/** The commands that reach the network, in the images that have them (here and dns-tools.ts). */
export const networkCommands: readonly string[] = ['nc', 'curl', 'wget', 'dig', 'nslookup', 'getent'];

/** Which variant of a tool an image carries. */
export type NetTool = 'nc-openbsd' | 'nc-busybox' | 'curl' | 'wget-busybox' | DnsTool;

/** The tools of an image (by its short name), as its package list has them. */
export function netToolsOf(image: string): ReadonlyMap<string, NetTool> {
  switch (image) {
    case 'agnhost':
      // Alpine with netcat-openbsd, curl and bind-tools; musl's getent.
      return new Map<string, NetTool>([
        ['nc', 'nc-openbsd'],
        ['curl', 'curl'],
        ['wget', 'wget-busybox'],
        ['dig', 'dig'],
        ['nslookup', 'nslookup'],
        ['getent', 'getent-musl'],
      ]);
    case 'jessie-dnsutils':
      // Debian with dnsutils (BIND's dig and nslookup) and glibc's getent.
      return new Map<string, NetTool>([
        ['dig', 'dig'],
        ['nslookup', 'nslookup'],
        ['getent', 'getent-glibc'],
      ]);
    case 'busybox':
    case 'alpine':
      return new Map<string, NetTool>([
        ['nc', 'nc-busybox'],
        ['wget', 'wget-busybox'],
      ]);
    default:
      return new Map();
  }
}

/** /etc/services names nc prints for well-known ports. */
const serviceNames: Readonly<Record<number, string>> = {
  53: 'domain',
  80: 'http',
  443: 'https',
  8080: 'http-alt',
};

function seconds(v: string | undefined, flag: string): number {
  if (v === undefined || !/^\d+(\.\d+)?$/.test(v)) throw new ShellUnsupported(`${flag} ${v ?? ''}`);
  return Number(v) * 1000;
}

function portOf(v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) > 65535) throw new ShellUnsupported(`port ${v ?? ''}`);
  return Number(v);
}

/** OpenBSD netcat as a client: `nc [-v] [-t|-u] [-z] [-w secs] [-N] host port`. */
function ncOpenbsd(args: readonly string[], stdin: string, net: ShellNet): NetToolResult {
  let verbose = false;
  let udp = false;
  let zero = false;
  let waitMs: number | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[a-zA-Z]+$/.test(a)) {
      for (const f of a.slice(1)) {
        if (f === 'v') verbose = true;
        else if (f === 'u') udp = true;
        else if (f === 't' || f === 'n' || f === 'N' || f === 'q') continue;
        else if (f === 'z') zero = true;
        else if (f === 'w') waitMs = seconds(args[++i], '-w');
        else throw new ShellUnsupported(`nc -${f}`);
      }
    } else rest.push(a);
  }
  if (rest.length !== 2) throw new ShellUnsupported(`nc ${args.join(' ')}`);
  const host = rest[0]!;
  const port = portOf(rest[1]);
  const proto = udp ? 'udp' : 'tcp';
  const fail = (why: string, elapsedMs = 0): NetToolResult => ({
    code: 1,
    out: '',
    err: `nc: connect to ${host} port ${port} (${proto}) ${why}\n`,
    elapsedMs,
  });
  let ip: string;
  try {
    ip = net.resolve(host)[0] ?? host;
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    return {
      code: 1,
      out: '',
      err: `nc: getaddrinfo for host "${host}" port ${port}: Name does not resolve\n`,
      elapsedMs: 0,
    };
  }
  const succeeded = verbose
    ? `Connection to ${host} ${port} port [${proto}/${serviceNames[port] ?? '*'}] succeeded!\n`
    : '';
  try {
    if (udp) {
      // UDP has no connection: nc reports success, sends, prints any answer until its wait ends.
      const reply = zero ? undefined : net.udp(ip, port, stdin);
      return { code: 0, out: reply ?? '', err: succeeded, elapsedMs: waitMs ?? Infinity };
    }
    const reply = net.tcp(ip, port, zero ? '' : stdin);
    // An HTTP server keeps the connection open after its answer: nc waits for -w.
    const keptOpen = /^HTTP\/1\.1 /.test(reply) && !/\r\nConnection: close\r\n/i.test(reply);
    return { code: 0, out: reply, err: succeeded, elapsedMs: keptOpen && !zero ? (waitMs ?? Infinity) : 0 };
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    if (err.code === 'refused')
      return udp ? { code: 1, out: '', err: succeeded, elapsedMs: 0 } : fail('failed: Connection refused');
    // A connection that never opens: the wait (-w), else the kernel's (about two minutes).
    return fail('failed: Operation timed out', waitMs ?? 127_000);
  }
}

/** busybox nc as a client: `nc [-w secs] host port`. */
function ncBusybox(args: readonly string[], stdin: string, net: ShellNet): NetToolResult {
  let waitMs: number | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-w') waitMs = seconds(args[++i], '-w');
    else if (/^-w\d+$/.test(a)) waitMs = seconds(a.slice(2), '-w');
    else if (a.startsWith('-')) throw new ShellUnsupported(`nc ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 2) throw new ShellUnsupported(`nc ${args.join(' ')}`);
  const host = rest[0]!;
  const port = portOf(rest[1]);
  let ip: string;
  try {
    ip = net.resolve(host)[0] ?? host;
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    return { code: 1, out: '', err: `nc: bad address '${host}'\n`, elapsedMs: 0 };
  }
  try {
    return { code: 0, out: net.tcp(ip, port, stdin), err: '', elapsedMs: 0 };
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    const why = err.code === 'refused' ? 'Connection refused' : 'Connection timed out';
    return {
      code: 1,
      out: '',
      err: `nc: can't connect to remote host (${ip}): ${why}\n`,
      elapsedMs: err.code === 'refused' ? 0 : (waitMs ?? 127_000),
    };
  }
}

interface ParsedUrl {
  readonly tls: boolean;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly rawQuery: string;
}

function parseHttpUrl(raw: string, tool: string): ParsedUrl {
  const m = /^(?:(https?):\/\/)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?([^?#]*)(?:\?([^#]*))?/.exec(raw);
  if (m === null) throw new ShellUnsupported(`${tool} ${raw}`);
  const tls = m[1] === 'https';
  return {
    tls,
    host: m[2]!.replace(/^\[|\]$/g, ''),
    port: m[3] !== undefined ? Number(m[3]) : tls ? 443 : 80,
    path: m[4] === '' || m[4] === undefined ? '/' : m[4],
    rawQuery: m[5] ?? '',
  };
}

function request(
  u: ParsedUrl,
  method: string,
  headers: Record<string, string>,
  body: string,
  agent: string,
): SimHttpRequest {
  return {
    method,
    path: u.path,
    rawQuery: u.rawQuery,
    headers: {
      host: u.port === (u.tls ? 443 : 80) ? u.host : `${u.host}:${u.port}`,
      'user-agent': agent,
      accept: '*/*',
      ...headers,
    },
    body,
    tls: u.tls,
  };
}

/** curl (7.x) as e2e specs call it: -s -S -q -g -f -k -L -I -X -H -d -o -w '%{http_code}', timeouts. */
function curl(args: readonly string[], net: ShellNet): NetToolResult {
  let silent = false;
  let showError = false;
  let failOnError = false;
  let insecure = false;
  let head = false;
  let method: string | undefined;
  let data: string | undefined;
  let output: string | undefined;
  let writeOut: string | undefined;
  let connectMs: number | undefined;
  let maxMs: number | undefined;
  const headers: Record<string, string> = {};
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = (): string => {
      const v = args[++i];
      if (v === undefined) throw new ShellUnsupported(`curl ${a}`);
      return v;
    };
    if (a === '--connect-timeout') connectMs = seconds(next(), a);
    else if (a === '--max-time' || a === '-m') maxMs = seconds(next(), a);
    else if (a === '-X' || a === '--request') method = next();
    else if (a === '--interface') next();
    else if (a === '-H' || a === '--header') {
      const h = next();
      const colon = h.indexOf(':');
      if (colon > 0) headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (a === '-d' || a === '--data') data = next();
    else if (a === '-o' || a === '--output') output = next();
    else if (a === '-w' || a === '--write-out') writeOut = next();
    else if (a === '--silent') silent = true;
    else if (a === '--show-error') showError = true;
    else if (a === '--fail') failOnError = true;
    else if (a === '--insecure') insecure = true;
    else if (a === '--head') head = true;
    else if (a === '--globoff' || a === '--disable') continue;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const f of a.slice(1)) {
        if (f === 's') silent = true;
        else if (f === 'S') showError = true;
        else if (f === 'f') failOnError = true;
        else if (f === 'k') insecure = true;
        else if (f === 'I') head = true;
        else if (f === 'q' || f === 'g' || f === 'L') continue;
        else throw new ShellUnsupported(`curl -${f}`);
      }
    } else if (a.startsWith('-')) throw new ShellUnsupported(`curl ${a}`);
    else url = a;
  }
  if (url === undefined) throw new ShellUnsupported('curl without a URL');
  const u = parseHttpUrl(url, 'curl');
  const quiet = silent && !showError;
  const error = (code: number, text: string, elapsedMs = 0): NetToolResult => ({
    code,
    out: writeOut === '%{http_code}' ? '000' : '',
    err: quiet ? '' : `curl: (${code}) ${text}\n`,
    elapsedMs,
  });
  let ip: string;
  try {
    ip = net.resolve(u.host)[0] ?? u.host;
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    return error(6, `Could not resolve host: ${u.host}`);
  }
  // The porter and webhook servers' certificates are not for this address: only -k goes on.
  if (u.tls && !insecure) {
    return error(60, 'SSL certificate problem: unable to get local issuer certificate');
  }
  let resp: SimHttpResponse;
  try {
    resp = net.http(
      ip,
      u.port,
      request(
        u,
        method ?? (head ? 'HEAD' : data !== undefined ? 'POST' : 'GET'),
        headers,
        data ?? '',
        'curl/7.79.1',
      ),
    );
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    if (err.code === 'refused')
      return error(7, `Failed to connect to ${u.host} port ${u.port}: Connection refused`);
    const ms = Math.min(connectMs ?? 127_000, maxMs ?? Infinity);
    return error(28, `Connection timed out after ${ms} milliseconds`, ms);
  }
  if (failOnError && resp.status >= 400) {
    return error(22, `The requested URL returned error: ${resp.status}`);
  }
  const headText = head
    ? `HTTP/1.1 ${resp.status}\r\n${Object.entries(resp.headers)
        .map(([k, v]) => `${k.toLowerCase()}: ${v}\r\n`)
        .join('')}\r\n`
    : '';
  const body = head ? headText : resp.body;
  const code = writeOut === '%{http_code}' ? String(resp.status) : writeOut === undefined ? '' : undefined;
  if (code === undefined) throw new ShellUnsupported(`curl -w ${writeOut ?? ''}`);
  if (output !== undefined && output !== '/dev/null' && output !== '-') {
    return { code: 0, out: code, err: '', elapsedMs: 0, file: { path: output, content: body } };
  }
  return { code: 0, out: (output === '/dev/null' ? '' : body) + code, err: '', elapsedMs: 0 };
}

/** busybox wget: `wget [-q] [-O FILE|-] [-T secs] [-S] URL`. */
function wget(args: readonly string[], net: ShellNet): NetToolResult {
  let quiet = false;
  let output: string | undefined;
  let timeoutMs: number | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q') quiet = true;
    else if (a === '-qO-' || a === '-qO') {
      quiet = true;
      output = a === '-qO-' ? '-' : args[++i];
    } else if (a === '-O') output = args[++i];
    else if (a.startsWith('-O')) output = a.slice(2);
    else if (a === '-T') timeoutMs = seconds(args[++i], '-T');
    else if (a === '--spider' || a === '-S' || a.startsWith('-')) throw new ShellUnsupported(`wget ${a}`);
    else url = a;
  }
  if (url === undefined) throw new ShellUnsupported('wget without a URL');
  const u = parseHttpUrl(url, 'wget');
  if (u.tls) throw new ShellUnsupported('wget over TLS');
  const hostPort = u.port === 80 ? u.host : `${u.host}:${u.port}`;
  let ip: string;
  try {
    ip = net.resolve(u.host)[0] ?? u.host;
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    return { code: 1, out: '', err: `wget: bad address '${hostPort}'\n`, elapsedMs: 0 };
  }
  const connecting = quiet ? '' : `Connecting to ${hostPort} (${ip}:${u.port})\n`;
  let resp: SimHttpResponse;
  try {
    resp = net.http(ip, u.port, request(u, 'GET', {}, '', 'Wget'));
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    if (err.code === 'refused') {
      return {
        code: 1,
        out: '',
        err: `${connecting}wget: can't connect to remote host (${ip}): Connection refused\n`,
        elapsedMs: 0,
      };
    }
    return {
      code: 1,
      out: '',
      err: `${connecting}wget: download timed out\n`,
      elapsedMs: timeoutMs ?? 900_000,
    };
  }
  if (resp.status >= 400) {
    return {
      code: 1,
      out: '',
      err: `${connecting}wget: server returned error: HTTP/1.1 ${resp.status} ${STATUS_CODES[resp.status] ?? ''}\n`,
      elapsedMs: 0,
    };
  }
  const file = output ?? (u.path.split('/').pop() || 'index.html');
  if (file === '-') return { code: 0, out: resp.body, err: connecting, elapsedMs: 0 };
  return { code: 0, out: '', err: connecting, elapsedMs: 0, file: { path: file, content: resp.body } };
}

/** Runs a network tool of the image. */
export function runNetTool(
  tool: NetTool,
  args: readonly string[],
  stdin: string,
  net: ShellNet,
  read: (path: string) => string | undefined = () => undefined,
): NetToolResult {
  switch (tool) {
    case 'dig':
    case 'nslookup':
    case 'getent-glibc':
    case 'getent-musl':
      return runDnsTool(tool, args, { net, read });
    case 'nc-openbsd':
      return ncOpenbsd(args, stdin, net);
    case 'nc-busybox':
      return ncBusybox(args, stdin, net);
    case 'curl':
      return curl(args, net);
    case 'wget-busybox':
      return wget(args, net);
  }
}
