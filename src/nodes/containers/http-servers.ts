/**
 * What the servers the simulator knows answer over HTTP, read from their sources (agnhost v2.43's
 * porter, serve-hostname, netexec, test-webserver and guestbook; Apache httpd's static files):
 * the same body, status and headers for the same request. Where the answer depends on what the
 * simulator does not model (a file of the image it cannot know, the container's wall clock), the
 * server throws UnknowableAnswer instead of making one up.
 */
import { STATUS_CODES } from 'node:http';
import { goJson } from '../../machinery/fieldpath/value.js';
import { rootedCleanPath } from '../../util/go-path.js';
import type { FieldValue } from '../../machinery/fieldpath/value.js';
import {
  DialError,
  UnknowableAnswer,
  formValue,
  goError,
  goNotFound,
  goReply,
  typeByExtension,
} from './http-answer.js';
import type { ServeContext } from './http-answer.js';
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import { ShellUnsupported } from './shell-parse.js';
import { NetFailure } from './shell-net.js';

export type Serve = (req: SimHttpRequest, ctx: ServeContext) => SimHttpResponse;

/** A plain TCP or UDP server: what it writes back for what it read (undefined: nothing). */
export type RawServe = (
  data: string,
  ctx: ServeContext & { readonly clientIP: string },
) => string | undefined;

/** agnhost porter: every request on a SERVE_PORT_<n> gets the variable's value (as JSON with --json-response). */
export function porterServe(value: string, jsonResponse: boolean): Serve {
  return (req, ctx) =>
    jsonResponse
      ? goReply(
          200,
          `{"Method":${goJson(req.method)},"Body":${goJson(value)}}`,
          { 'Content-Type': 'application/json' },
          ctx.now,
        )
      : goReply(200, value, {}, ctx.now);
}

/** agnhost serve-hostname over HTTP: the hostname for every path (`Connection: close` with --close). */
export function serveHostnameServe(close: boolean): Serve {
  return (_req, ctx) => goReply(200, ctx.hostname, close ? { Connection: 'close' } : {}, ctx.now);
}

/** Go's ServeMux path match: `/x` exactly, or the subtree of a pattern ending in `/`. */
function route(path: string, patterns: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const p of patterns) {
    const hit = p.endsWith('/') ? path.startsWith(p) : path === p;
    if (hit && (best === undefined || p.length > best.length)) best = p;
  }
  return best;
}

/**
 * agnhost netexec's HTTP handlers whose answers follow from the request and the pod: /hostname,
 * /hostName, /echo, /header, /healthz, /redirect, and /dial (which asks another server over the
 * pod's network). `/` (the time), /clientip, /shell, /exit and /upload are not modelled.
 */
export function netexecServe(): Serve {
  const patterns = [
    '/',
    '/clientip',
    '/header',
    '/dial',
    '/echo',
    '/exit',
    '/healthz',
    '/readyz',
    '/hostname',
    '/redirect',
    '/shell',
    '/upload',
    '/hostName',
    '/shutdown',
  ];
  return (req, ctx) => {
    const at = route(req.path, patterns);
    switch (at) {
      case '/hostname':
      case '/hostName':
        ctx.log(`GET ${at}`);
        return goReply(200, ctx.hostname, {}, ctx.now);
      case '/healthz':
        ctx.log('GET /healthz');
        return goReply(200, '', {}, ctx.now);
      case '/echo': {
        const code = formValue(req, 'code');
        const msg = formValue(req, 'msg');
        ctx.log(`GET /echo?msg=${msg}&code=${code}`);
        if (code === '') return goReply(200, msg, {}, ctx.now);
        if (!/^[+-]?\d+$/.test(code))
          return goReply(
            200,
            `argument 'code' must be an integer or empty, got ${JSON.stringify(code)}\n`,
            {},
            ctx.now,
          );
        return goReply(Number(code), msg, {}, ctx.now);
      }
      case '/header': {
        const key = formValue(req, 'key');
        ctx.log(key === '' ? 'GET /header' : `GET /header?key=${key}`);
        if (key !== '') return goReply(200, req.headers[key.toLowerCase()] ?? '', {}, ctx.now);
        throw new UnknowableAnswer('agnhost netexec /header lists headers the client library adds');
      }
      case '/dial':
        return netexecDial(req, ctx);
      case '/redirect': {
        const code = formValue(req, 'code');
        ctx.log(`${req.method} /redirect?msg=${formValue(req, 'location')}&code=${code}`);
        if (code !== '' && !/^[+-]?\d+$/.test(code))
          return goReply(
            200,
            `argument 'code' must be an integer or empty, got ${JSON.stringify(code)}\n`,
            {},
            ctx.now,
          );
        return goRedirect(req, formValue(req, 'location'), code === '' ? 302 : Number(code), ctx.now);
      }
      default:
        throw new UnknowableAnswer(`agnhost netexec ${at ?? req.path} is not modelled`);
    }
  };
}

/** netexec /dial: `tries` requests to host:port over HTTP or UDP, their answers and errors as JSON. */
function netexecDial(req: SimHttpRequest, ctx: ServeContext): SimHttpResponse {
  const host = formValue(req, 'host');
  const port = formValue(req, 'port');
  const request = formValue(req, 'request');
  const protocol = formValue(req, 'protocol').toLowerCase();
  const tryParam = formValue(req, 'tries');
  ctx.log(`GET /dial?host=${host}&protocol=${protocol}&port=${port}&request=${request}&tries=${tryParam}`);
  if (tryParam !== '' && !/^[+-]?\d+$/.test(tryParam)) {
    return goError(
      400,
      `tries parameter is invalid. strconv.Atoi: parsing ${JSON.stringify(tryParam)}: invalid syntax`,
      ctx.now,
    );
  }
  const tries = tryParam === '' ? 1 : Number(tryParam);
  if (request === '') return goError(400, 'request parameter not specified. <nil>', ctx.now);
  if (!['', 'http', 'udp'].includes(protocol)) {
    if (protocol === 'sctp') throw new UnknowableAnswer('agnhost netexec /dial over SCTP is not modelled');
    return goError(400, `unsupported protocol. ${protocol}`, ctx.now);
  }
  if (!/^\d+$/.test(port)) {
    return goError(400, `host and/or port param are invalid. address ${host}:${port}: invalid port`, ctx.now);
  }
  let ip: string;
  try {
    ip = ctx.net.resolve(host)[0] ?? host;
  } catch (err) {
    if (!(err instanceof NetFailure)) throw err;
    return goError(400, `host and/or port param are invalid. lookup ${host}: no such host`, ctx.now);
  }
  const hostPort = ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
  const responses: string[] = [];
  const errors: string[] = [];
  let last = '';
  for (let i = 0; i < tries; i++) {
    last = '';
    try {
      if (protocol === 'udp') {
        const answer = ctx.net.udp(ip, Number(port), request);
        if (answer === undefined || answer === '') {
          errors.push(
            `reading from udp connection failed. err:'read udp ${ctx.podIP}->${hostPort}: i/o timeout'`,
          );
          continue;
        }
        last = answer;
      } else {
        const r = ctx.net.http(ip, Number(port), {
          method: 'GET',
          path: `/${request}`,
          rawQuery: '',
          headers: { host: hostPort, 'user-agent': 'Go-http-client/1.1' },
          body: '',
          tls: false,
        });
        last = r.body;
      }
      responses.push(last);
    } catch (err) {
      if (!(err instanceof NetFailure)) throw err;
      errors.push(
        protocol === 'udp'
          ? `reading from udp connection failed. err:'read udp ${ctx.podIP}->${hostPort}: read: connection refused'`
          : `Get "http://${hostPort}/${request}": ${err.message}`,
      );
    }
  }
  // As netexec: the responses only when the last try answered something.
  const out: Record<string, FieldValue> = {};
  if (last !== '') out['responses'] = responses;
  if (errors.length > 0) out['errors'] = errors;
  return goReply(200, goJson(out), {}, ctx.now);
}

/** netexec's UDP server: `hostname`, `echo <text>`; `clientip` (an ephemeral port) is not modelled. */
export const netexecUdp: RawServe = (data, ctx) => {
  const text = data.trim().toLowerCase();
  if (text === 'hostname') {
    ctx.log('Sending udp hostName response');
    return ctx.hostname;
  }
  // These lines name the client's ephemeral port, which the simulator does not know.
  if (text.startsWith('echo ')) {
    ctx.log(undefined);
    return text.slice(5);
  }
  if (text === 'clientip') throw new UnknowableAnswer('the client port netexec would print');
  if (text !== '') ctx.log(undefined);
  return undefined;
};

/** serve-hostname's TCP and UDP servers: the hostname for whatever arrives. */
export const serveHostnameRaw: RawServe = (_data, ctx) => ctx.hostname;

/** Go's http.Redirect for a location (relative ones are made absolute against the request path). */
function goRedirect(req: SimHttpRequest, location: string, code: number, now: number): SimHttpResponse {
  let loc = location;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(loc) && !loc.startsWith('/')) {
    const dir = req.path.replace(/[^/]*$/, '');
    loc = dir + loc;
  }
  const headers: Record<string, string> = { Location: loc };
  let body = '';
  if (req.method === 'GET' || req.method === 'HEAD') {
    headers['Content-Type'] = 'text/html; charset=utf-8';
    const text = STATUS_CODES[code] ?? '';
    body = `<a href="${htmlEscape(loc)}">${text}</a>.\n\n`;
  }
  return goReply(code, body, headers, now);
}

function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c] ?? c,
  );
}

/** Reads a file for a file server: undefined when it does not exist; unknowable files throw. */
function readFile(ctx: ServeContext, path: string): { dir: boolean; content: string | undefined } {
  try {
    const content = ctx.fs.read(path);
    if (content !== undefined) return { dir: false, content };
    const dir = ctx.fs.isDir?.(path) ?? false;
    return { dir, content: undefined };
  } catch (err) {
    if (err instanceof ShellUnsupported) throw new UnknowableAnswer(err.message);
    throw err;
  }
}

function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * agnhost test-webserver: Go's http.FileServer over the container's root with its CORS and
 * Cache-Control headers. Directory listings are not modelled (the simulator cannot list an image).
 */
export function testWebserverServe(): Serve {
  const extra = {
    'Cache-Control': 'private',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers':
      'DNT,X-Mx-ReqToken,Keep-Alive,User-Agent,X-Requested-With,Cache-Control,Content-Type',
  };
  return (req, ctx) => {
    const decoded = decodePath(req.path);
    if (decoded === undefined) return goNotFound(ctx.now);
    // ServeFile's redirects: /index.html to ./, a directory to its slash, a file away from one.
    if (decoded.endsWith('/index.html')) return redirectRelative('./', req, extra, ctx.now);
    const name = rootedCleanPath(decoded);
    const f = readFile(ctx, name);
    if (f.content === undefined && !f.dir)
      return goReply(
        404,
        '404 page not found\n',
        { ...extra, 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
        ctx.now,
      );
    if (f.dir) {
      if (!decoded.endsWith('/'))
        return redirectRelative(`${name.split('/').pop() ?? ''}/`, req, extra, ctx.now);
      const index = readFile(ctx, `${name === '/' ? '' : name}/index.html`);
      if (index.content === undefined) throw new UnknowableAnswer(`a listing of ${name} in the image`);
      return fileReply(req, `${name}/index.html`, index.content, extra, ctx.now);
    }
    if (decoded.endsWith('/'))
      return redirectRelative(`../${name.split('/').pop() ?? ''}`, req, extra, ctx.now);
    return fileReply(req, name, f.content ?? '', extra, ctx.now);
  };
}

function fileReply(
  req: SimHttpRequest,
  name: string,
  content: string,
  extra: Readonly<Record<string, string>>,
  now: number,
): SimHttpResponse {
  const type = typeByExtension(name);
  const r = goReply(
    200,
    content,
    { ...extra, 'Accept-Ranges': 'bytes', ...(type !== undefined ? { 'Content-Type': type } : {}) },
    now,
  );
  return req.method === 'HEAD' ? { ...r, body: '' } : r;
}

/** ServeFile's localRedirect: 301 to a location relative to the request (its query kept). */
function redirectRelative(
  target: string,
  req: SimHttpRequest,
  extra: Readonly<Record<string, string>>,
  now: number,
): SimHttpResponse {
  const loc = req.rawQuery === '' ? target : `${target}?${req.rawQuery}`;
  return goReply(301, '', { ...extra, Location: loc }, now);
}

/** Apache httpd's 404 page (2.4). */
const apacheNotFound =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n';

/** Apache httpd serving its document root: files, a directory's index.html, 404 otherwise. */
export function httpdServe(documentRoot: string): Serve {
  return (req, ctx) => {
    const decoded = decodePath(req.path);
    const name = rootedCleanPath(decoded ?? '/');
    const path = `${documentRoot}${name === '/' ? '' : name}`;
    const f = decoded === undefined ? { dir: false, content: undefined } : readFile(ctx, path);
    const date = new Date(ctx.now).toUTCString();
    const headers = (type: string, body: string): Record<string, string> => ({
      Date: date,
      Server: 'Apache/2.4',
      'Content-Length': String(Buffer.byteLength(body)),
      'Content-Type': type,
    });
    let content = f.content;
    let file = path;
    if (f.dir) {
      file = `${path.replace(/\/$/, '')}/index.html`;
      content = readFile(ctx, file).content;
    }
    if (content === undefined) {
      return {
        status: 404,
        headers: headers('text/html; charset=iso-8859-1', apacheNotFound),
        body: req.method === 'HEAD' ? '' : apacheNotFound,
      };
    }
    const type = (typeByExtension(file) ?? 'text/plain').replace('; charset=utf-8', '');
    return {
      status: 200,
      headers: { ...headers(type, content), 'Accept-Ranges': 'bytes' },
      body: req.method === 'HEAD' ? '' : content,
    };
  };
}

/** The store of an agnhost guestbook instance, and the replicas registered with it. */
class GuestbookStore {
  data: Record<string, FieldValue> = {};
  readonly replicas: string[] = [];
  /** A replica: whether it registered with its primary (it does once, at start). */
  registered = false;
}

function guestbookStore(ctx: ServeContext): GuestbookStore {
  const s = ctx.state.get('guestbook');
  if (s instanceof GuestbookStore) return s;
  const fresh = new GuestbookStore();
  ctx.state.set('guestbook', fresh);
  return fresh;
}

export interface GuestbookFlags {
  readonly backendPort: number;
  /** The primary a replica registers with ('' for the primary and the frontend). */
  readonly replicaOf: string;
}

/**
 * agnhost guestbook: /register, /get, /set and /guestbook (the frontend, which asks
 * agnhost-replica to get and agnhost-primary to set, by name, on --backend-port).
 *
 * A replica registers with its primary when it starts; here it does so when it is first asked
 * something, which gives the same store (the primary's at that moment, then what it pushes).
 */
export function guestbookServe(flags: GuestbookFlags): Serve {
  const dial = (ctx: ServeContext, host: string, request: string): string =>
    ctx.get(host, flags.backendPort, `/${request}`).body;
  const register = (ctx: ServeContext, store: GuestbookStore, podIP: string): void => {
    if (flags.replicaOf === '' || store.registered) return;
    try {
      const body = dial(ctx, flags.replicaOf, `register?host=${podIP}`);
      const parsed: unknown = JSON.parse(body);
      const data =
        typeof parsed === 'object' && parsed !== null
          ? (parsed as Record<string, unknown>)['data']
          : undefined;
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
        store.data = data as Record<string, FieldValue>;
        store.registered = true;
      }
    } catch (err) {
      // Not registered yet: it tries again when asked next (the real one retries for 15 s).
      if (!(err instanceof DialError) && !(err instanceof SyntaxError)) throw err;
    }
  };
  return (req, ctx) => {
    const store = guestbookStore(ctx);
    register(ctx, store, ctx.podIP);
    const q = (k: string): string => formValue(req, k);
    switch (req.path) {
      case '/register':
        store.replicas.push(q('host'));
        return goReply(200, goJson({ data: store.data }), {}, ctx.now);
      case '/get': {
        const key = q('key');
        const value = key === '' ? store.data : (store.data[key] ?? '');
        return goReply(200, goJson({ data: value }), {}, ctx.now);
      }
      case '/set': {
        const key = q('key');
        if (key === '') return goError(400, 'cannot set with empty key.', ctx.now);
        const value = q('value');
        store.data[key] = value;
        for (const replica of store.replicas) {
          try {
            ctx.get(replica, flags.backendPort, `/set?key=${key}&value=${value}`);
          } catch (err) {
            if (!(err instanceof DialError)) throw err;
            return goError(
              417,
              `encountered error while propagating to replica '${replica}': ${err.message}`,
              ctx.now,
            );
          }
        }
        return goReply(200, goJson({ message: 'Updated' }), {}, ctx.now);
      }
      case '/guestbook': {
        const cmd = q('cmd').toLowerCase();
        const key = q('key');
        const value = q('value');
        if (cmd !== 'get' && cmd !== 'set') return goError(400, `unsupported cmd: '${cmd}'`, ctx.now);
        if (cmd === 'set' && key === '') return goError(400, 'cannot set with empty key.', ctx.now);
        const host = cmd === 'get' ? 'agnhost-replica' : 'agnhost-primary';
        try {
          const body = dial(ctx, host, `${cmd}?key=${key}&value=${value}`);
          return goReply(200, body, {}, ctx.now);
        } catch (err) {
          if (!(err instanceof DialError)) throw err;
          return goError(417, `encountered error: ${err.message}`, ctx.now);
        }
      }
      default:
        return goNotFound(ctx.now);
    }
  };
}
