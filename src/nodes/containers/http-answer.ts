/**
 * HTTP as the servers in simulated containers speak it: a request, the answer, and how Go's
 * net/http server writes an answer its handler left incomplete (the Content-Type sniffed from
 * the body as http.DetectContentType does, Content-Length, Date; http.Error's text answers). The
 * known servers (http-servers.ts) are Go programs (agnhost) or Apache httpd.
 */
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import type { ShellFs } from './shell-run.js';
import type { ShellNet } from './shell-net.js';

/**
 * An answer the simulator cannot give: what the server would say depends on something it does
 * not model (a file of the image, the wall clock of the container). The reason says what.
 */
export class UnknowableAnswer extends Error {}

/**
 * A Go handler panicked: net/http recovers, logs it and closes the connection without an
 * answer (the client reads EOF). The message is the panic's.
 */
export class HandlerPanic extends Error {}

/** Go's http.DetectContentType for the signatures the simulated servers' bodies can have. */
export function detectContentType(body: string): string {
  const data = body.slice(0, 512);
  // Leading whitespace is skipped for the HTML and XML signatures.
  const trimmed = data.replace(/^[\t\n\f\r ]+/, '');
  const upper = trimmed.slice(0, 16).toUpperCase();
  const htmlTags = [
    '<!DOCTYPE HTML',
    '<HTML',
    '<HEAD',
    '<SCRIPT',
    '<IFRAME',
    '<H1',
    '<DIV',
    '<FONT',
    '<TABLE',
    '<A',
    '<STYLE',
    '<TITLE',
    '<B',
    '<BODY',
    '<BR',
    '<P',
    '<!--',
  ];
  for (const tag of htmlTags) {
    // The tag must be followed by a space or `>` (a "tag-terminating byte").
    if (upper.startsWith(tag) && [' ', '>'].includes(trimmed[tag.length] ?? '')) {
      return 'text/html; charset=utf-8';
    }
  }
  if (trimmed.startsWith('<?xml')) return 'text/xml; charset=utf-8';
  if (data.startsWith('%PDF-')) return 'application/pdf';
  if (data.startsWith('GIF87a') || data.startsWith('GIF89a')) return 'image/gif';
  if (data.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (data.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (data.startsWith('\ufeff')) return 'text/plain; charset=utf-8';
  // Text unless a byte is one of the binary control characters.
  return /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/.test(data)
    ? 'application/octet-stream'
    : 'text/plain; charset=utf-8';
}

/**
 * The answer as Go's server writes it after a handler wrote `body` with `headers` set: a
 * Content-Type sniffed when none was set and there is a body, its length, the date.
 */
export function goReply(
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  now: number = Date.now(),
): SimHttpResponse {
  const out: Record<string, string> = { ...headers };
  if (out['Content-Type'] === undefined && body !== '' && status !== 204 && status !== 304) {
    out['Content-Type'] = detectContentType(body);
  }
  out['Content-Length'] = String(Buffer.byteLength(body));
  out['Date'] = new Date(now).toUTCString();
  return { status, headers: out, body };
}

/** Go's http.Error: the message and a newline as plain text, never sniffed. */
export function goError(status: number, message: string, now?: number): SimHttpResponse {
  return goReply(
    status,
    `${message}\n`,
    { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
    now,
  );
}

/** Go's http.NotFound. */
export function goNotFound(now?: number): SimHttpResponse {
  return goError(404, '404 page not found', now);
}

/** A form value as Go's Request.FormValue reads it from the query: the first, or ''. */
export function formValue(req: SimHttpRequest, key: string): string {
  return new URLSearchParams(req.rawQuery).get(key) ?? '';
}

/** mime.TypeByExtension for the extensions of files the simulated servers hold. */
export function typeByExtension(path: string): string | undefined {
  const ext = /\.[^./]*$/.exec(path)?.[0]?.toLowerCase();
  switch (ext) {
    case '.html':
    case '.htm':
      return 'text/html; charset=utf-8';
    case '.json':
      return 'application/json';
    case '.txt':
      return 'text/plain; charset=utf-8';
    case '.css':
      return 'text/css; charset=utf-8';
    case '.js':
      return 'text/javascript; charset=utf-8';
    case '.jpg':
    case '.jpeg':
      return 'image/jpeg';
    case '.png':
      return 'image/png';
    case '.svg':
      return 'image/svg+xml';
    case '.xml':
      return 'text/xml; charset=utf-8';
    default:
      return undefined;
  }
}

/** What a server in a simulated container draws on to answer. */
export interface ServeContext {
  /** The container's hostname (the pod's, as the kubelet sets it). */
  readonly hostname: string;
  /** The pod's IP (its first). */
  readonly podIP: string;
  /** The container's files now; reads throw ShellUnsupported where the simulator cannot know. */
  readonly fs: Pick<ShellFs, 'read' | 'isDir'>;
  /** State the server keeps while this instance of the container runs (guestbook's store). */
  readonly state: Map<string, unknown>;
  /**
   * An HTTP GET from this pod to `host:port` over the simulated cluster network (a Service's name
   * resolved in the pod's namespace, a cluster IP or a pod IP); throws DialError when it fails.
   */
  readonly get: (host: string, port: number, pathAndQuery: string) => SimHttpResponse;
  /** The pod's network, as its commands see it (netexec's /dial). */
  readonly net: ShellNet;
  /** The nodes' clock now (ms). */
  readonly now: number;
  /**
   * Writes a line to the container's log as Go's log package does (undefined text: the server
   * logs something the simulator cannot know, so its log is no longer known).
   */
  readonly log: (text: string | undefined) => void;
}

/** A connection from a simulated pod that could not be made, worded as Go's net package words it. */
export class DialError extends Error {}
