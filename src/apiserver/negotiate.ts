/**
 * Content negotiation: which representation the client accepts (JSON, YAML, protobuf, Table,
 * PartialObjectMetadata) and which it sent.
 */
import { builtinProtobuf } from '../apis/protobuf.js';
import { apiVersionOf } from '../apis/resource.js';
import type { ResourceInfo } from '../apis/resource.js';
import { apiErrors } from '../machinery/errors.js';

export type Output = 'object' | 'table' | 'metadata';
export type Format = 'json' | 'yaml' | 'protobuf';

const protobufType = 'application/vnd.kubernetes.protobuf';

function formatOf(type: string, protobuf: boolean): Format | undefined {
  if (type === 'application/yaml') return 'yaml';
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  if (type === protobufType && protobuf) return 'protobuf';
  return undefined;
}

export interface Negotiated {
  /** Serialization of the response body. */
  readonly format: Format;
  /** Representation: the object itself, a meta.k8s.io Table, or PartialObjectMetadata(List). */
  readonly as: Output;
  /** `g=meta.k8s.io;v=v1` or v1beta1 for Table/PartialObjectMetadata. */
  readonly asVersion: string;
}

interface MediaRange {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
}

const anyMedia: readonly MediaRange[] = [{ type: '*/*', params: new Map(), q: 1 }];

/**
 * Parsed Accept headers by their text: clients send a handful of distinct ones, each thousands of
 * times (every request negotiates). Bounded: emptied when full.
 */
const parsedAccepts = new Map<string, readonly MediaRange[]>();
const parsedAcceptsMax = 256;

/** The media ranges of an Accept header, highest q first (shared: never modify them). */
export function parseAccept(header: string | undefined): readonly MediaRange[] {
  if (header === undefined) return anyMedia;
  let parsed = parsedAccepts.get(header);
  if (parsed === undefined) {
    parsed = parseAcceptText(header);
    if (parsedAccepts.size >= parsedAcceptsMax) parsedAccepts.clear();
    parsedAccepts.set(header, parsed);
  }
  return parsed;
}

function parseAcceptText(header: string): readonly MediaRange[] {
  if (header.trim() === '') return anyMedia;
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [type, ...paramParts] = part.split(';');
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim();
      if (k === 'q') q = Number(v);
      else params.set(k, v);
    }
    out.push({ type: (type ?? '').trim().toLowerCase(), params, q });
  }
  return out.sort((a, b) => b.q - a.q);
}

const served = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/**
 * Picks the response representation for an object or list endpoint. `protobuf` says whether the
 * endpoint's kind has a protobuf form (built-ins do; custom resources do not). A Table has none
 * (upstream marks it `+protobuf=false`), so `application/vnd.kubernetes.protobuf;as=Table` is
 * passed over. `table` is false for endpoints without a table convertor (the reviews, bindings,
 * evictions, token requests): upstream's AllowsMediaTypeTransform passes `as=Table` over there
 * too, so a request that accepts nothing else gets 406 Not Acceptable.
 */
export function negotiateObject(accept: string | undefined, protobuf = true, table = true): Negotiated {
  for (const m of parseAccept(accept)) {
    const format = formatOf(m.type, protobuf);
    if (format === undefined) continue;
    const as = m.params.get('as');
    if (as === undefined) return { format, as: 'object', asVersion: '' };
    const g = m.params.get('g');
    const v = m.params.get('v');
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
    if (as === 'Table') {
      if (format === 'protobuf' || !table) continue;
      return { format, as: 'table', asVersion: v };
    }
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      return { format, as: 'metadata', asVersion: v };
    }
  }
  throw apiErrors.notAcceptable(served);
}

/** Negotiation for an endpoint: protobuf is offered when its kind has a protobuf form. */
export function negotiateFor(accept: string | undefined, info: ResourceInfo, table = true): Negotiated {
  return negotiateObject(accept, builtinProtobuf.supports(apiVersionOf(info), info.kind), table);
}

/**
 * The serialization of an error Status (upstream's ErrorNegotiated): the first accepted media type
 * without an `as` conversion; JSON when none is.
 */
export function negotiateError(accept: string | undefined): Format {
  for (const m of parseAccept(accept)) {
    if (m.params.has('as')) continue;
    const format = formatOf(m.type, true);
    if (format !== undefined) return format;
  }
  return 'json';
}

/** Media type of a request body, lower-cased without parameters. */
export function bodyMediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Go's strconv.ParseBool; anything else reads as false (as upstream ignores the error). */
function parseGoBool(v: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/** What a pretty-print decision needs of a request. */
export interface PrettyRequest {
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}

/**
 * Whether a JSON response is indented (upstream negotiation.NegotiateOutputMediaType): a
 * `pretty=1` parameter on the accepted JSON media type, else a non-empty `pretty` query
 * parameter, else a User-Agent of curl, Wget or a browser (negotiate.go isPrettyPrint).
 */
export function isPrettyPrint(req: PrettyRequest): boolean {
  const accept = req.headers['accept'];
  for (const m of parseAccept(typeof accept === 'string' ? accept : undefined)) {
    if (m.type !== 'application/json' && m.type !== '*/*' && m.type !== 'application/*') continue;
    if (m.params.get('pretty') === '1') return true;
    break;
  }
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0 && url.includes('pretty', q)) {
    const pp = new URLSearchParams(url.slice(q + 1)).get('pretty') ?? '';
    if (pp !== '') return parseGoBool(pp);
  }
  const ua = req.headers['user-agent'];
  const agent = typeof ua === 'string' ? ua : '';
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}
