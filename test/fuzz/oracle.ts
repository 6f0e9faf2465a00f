/**
 * What every fuzz answer must be: no 5xx (except the few kube-apiserver v1.27 gives itself for
 * such input, listed below with the reason), a 4xx for input that is surely wrong, and every
 * error answer a `Status` (JSON, YAML or protobuf, as the client asked) whose code is
 * the HTTP status.
 */
import { parse } from 'yaml';
import { builtinProtobuf } from '../../src/apis/protobuf.js';
import type { FuzzCase } from './case.js';
import type { Outcome } from './send.js';

/** A server error kube-apiserver v1.27 answers too: the fuzz suite accepts it. */
interface UpstreamServerError {
  readonly code: number;
  readonly reason: string | undefined;
  readonly message: RegExp;
  /** Only for requests to such paths. */
  readonly path?: RegExp;
  /** Why upstream answers it. */
  readonly why: string;
}

const upstreamServerErrors: readonly UpstreamServerError[] = [
  {
    code: 504,
    reason: 'Timeout',
    message: /^Timeout: Too large resource version: \d+, current: \d+$/,
    why: 'a read at a resourceVersion the cache has not reached waits 3 s, then the cacher times out',
  },
  {
    code: 504,
    reason: 'Timeout',
    message: /^Timeout: request did not complete within requested timeout - context deadline exceeded$/,
    why: 'a request past its ?timeout= deadline (timeout=1ms) is answered by the timeout filter',
  },
  {
    code: 500,
    reason: undefined,
    message: /^resourceVersion should not be set on objects to be created$/,
    why: "etcd3's store refuses a set resourceVersion on create with an error the registry passes through",
  },
  {
    code: 500,
    reason: undefined,
    message: /^etcdserver: request is too large$/,
    why: "an object past etcd's 1.5 MiB request limit: etcd's error passed through ErrorToAPIStatus",
  },
  {
    code: 500,
    reason: 'ServerTimeout',
    message: /^The POST operation against \S+ could not be completed at this time, please try again\.$/,
    why: 'a create with generateName whose name is taken is rest.CheckGeneratedNameError',
  },
  {
    code: 500,
    reason: undefined,
    message: /^failed to create typed live object \(.*duplicate entries for key/s,
    why: "an apply to an object whose stored list-map has duplicate keys: v1.27's field manager converts the live object without AllowDuplicates",
  },
  {
    code: 500,
    reason: undefined,
    message: /^failed to create typed patch object \(/,
    why: "an apply patch the type converter refuses is the field manager's plain error, passed through",
  },
  {
    code: 500,
    reason: undefined,
    message:
      /^(unknown patch type: |expected a \S+( \{\})?, but received a |map: .* does not contain declared merge key: |merging lists cannot yet be specified in the patch$|unexpected patch strategy: |cannot merge lists without merge key for |list element types are not identical: |no elements in any of the given slices$|value for key \d+ is not a map$)/s,
    why: 'strategic merge errors other than the mergepatch sentinels are passed through unconverted',
  },
  {
    code: 500,
    reason: undefined,
    message: /^\[?(target|metadata)\.\S+: /,
    path: /\/(pods\/[^/]+\/binding|bindings)(\?|$)/,
    why: "pods/binding's ValidatePodBinding errors are returned as an aggregate, not an Invalid status",
  },
];

/** Answers upstream writes outside its Status writers (plain text), for the same input. */
const upstreamPlainAnswers: readonly {
  readonly code: number;
  readonly body: RegExp;
  readonly why: string;
}[] = [
  {
    code: 404,
    body: /^404 page not found\n$/,
    why: "a path outside the API is the not-found handler's http.NotFound",
  },
  {
    code: 405,
    body: /^405: Method Not Allowed$/,
    why: "a write to a go-restful document route (service account issuer discovery) is go-restful's 405",
  },
  {
    code: 500,
    body: /^Internal Server Error: ".*": requested \[.*\] without impersonating a user\n$/s,
    why: 'Impersonate-Group/-Uid/-Extra without Impersonate-User is responsewriters.InternalError',
  },
];

function upstreamServerError(
  c: FuzzCase,
  code: number,
  status: Record<string, unknown>,
): UpstreamServerError | undefined {
  const reason = typeof status['reason'] === 'string' ? status['reason'] : undefined;
  const message = typeof status['message'] === 'string' ? status['message'] : '';
  return upstreamServerErrors.find(
    (e) =>
      e.code === code &&
      e.reason === reason &&
      e.message.test(message) &&
      (e.path === undefined || e.path.test(c.path)),
  );
}

/**
 * Server bugs the suite found and that are not fixed yet: answers matching one are reported, not
 * failed (corpus/known-failing.json holds a replayable input for each).
 */
export const knownFailures: readonly { readonly problem: RegExp; readonly note: string }[] = [];

/** Whether the client's Accept header prefers protobuf (errors then come as protobuf Status). */
function prefersProtobuf(c: FuzzCase): boolean {
  const accept = c.headers?.['accept'] ?? 'application/json';
  const first = accept.split(',')[0]?.trim().split(';')[0]?.trim().toLowerCase();
  return first === 'application/vnd.kubernetes.protobuf';
}

function decodeStatus(c: FuzzCase, body: Buffer, contentType: string): Record<string, unknown> {
  if (
    contentType.startsWith('application/vnd.kubernetes.protobuf') ||
    (prefersProtobuf(c) && body[0] === 0x6b)
  ) {
    return builtinProtobuf.decode(body).object;
  }
  const text = body.toString('utf8');
  const parsed: unknown = contentType.startsWith('application/yaml') ? parse(text) : JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the body is no JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** The problem with an outcome, or undefined when it is fine. */
export function judge(c: FuzzCase, o: Outcome): string | undefined {
  switch (o.kind) {
    case 'unsendable':
      return undefined;
    case 'hang':
      return `no ${o.phase === 'head' ? 'answer' : 'end of the error body'} in time`;
    case 'error':
      return `connection failed: ${o.message}`;
    case 'answer':
      break;
  }
  const { status } = o;
  if (status >= 200 && status < 400) {
    return c.expect === 'invalid' ? `${status} for invalid input` : undefined;
  }
  if (status < 200 || status >= 600) return `HTTP status ${status}`;
  if (c.method === 'HEAD') return status >= 500 ? `${status} for HEAD` : undefined;
  const contentType = String(o.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/')) {
    const body = o.body.toString('utf8');
    if (upstreamPlainAnswers.some((a) => a.code === status && a.body.test(body))) return undefined;
  }
  let s: Record<string, unknown>;
  try {
    s = decodeStatus(c, o.body, contentType);
  } catch (err) {
    return `${status} with a body that is no Status (${contentType}): ${String(err)}: ${o.body.subarray(0, 300).toString('utf8')}`;
  }
  const problems: string[] = [];
  if (s['kind'] !== 'Status') problems.push(`kind ${String(s['kind'])}`);
  if (s['apiVersion'] !== 'v1') problems.push(`apiVersion ${String(s['apiVersion'])}`);
  if (s['status'] !== 'Failure') problems.push(`status ${String(s['status'])}`);
  if (s['code'] !== status) problems.push(`code ${String(s['code'])}`);
  if (typeof s['message'] !== 'string') problems.push('no message');
  if (problems.length > 0)
    return `${status} Status with ${problems.join(', ')}: ${JSON.stringify(s).slice(0, 300)}`;
  if (status >= 500 && upstreamServerError(c, status, s) === undefined) {
    return `server error ${status}: ${JSON.stringify(s).slice(0, 400)}`;
  }
  return undefined;
}
