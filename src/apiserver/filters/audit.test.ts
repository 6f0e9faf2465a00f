/**
 * The audit stages in the chain (AM-17): a bug escaping the handler is the Panic stage (and no
 * ResponseComplete); work stopped by an aborted request is not a panic; level None records nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverUser } from '../../machinery/user.js';
import { apiErrors } from '../../machinery/errors.js';
import type { AuditEvent } from '../audit/event.js';
import { parseAuditPolicy } from '../audit/policy.js';
import { buildChain } from '../context.js';
import type { RequestContext } from '../context.js';
import { InProcessServerRequest, InProcessServerResponse } from '../in-process.js';
import { isLongRunning, parseRequestInfo } from '../request-info.js';
import { writeError } from '../response.js';
import { withAudit } from './audit.js';

const policy = parseAuditPolicy(
  '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None","verbs":["list"]},{"level":"Metadata"}]}',
);

async function serve(
  path: string,
  handler: (ctx: RequestContext) => Promise<void>,
  abortFirst = false,
): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  const req = new InProcessServerRequest({ method: 'GET', path, headers: {} }, serverUser);
  const res = new InProcessServerResponse(req, () => {});
  const url = new URL(path, 'https://localhost');
  const info = parseRequestInfo('GET', url);
  const controller = new AbortController();
  if (abortFirst) controller.abort(new Error('client gone'));
  const chain = buildChain([withAudit({ policy, sink: { process: (e) => void events.push(e) } })], handler);
  try {
    await chain({
      req,
      res,
      method: 'GET',
      url,
      path: url.pathname,
      info,
      audit: { id: 'a-1', annotations: new Map() },
      user: serverUser,
      longRunning: isLongRunning(info),
      signal: controller.signal,
      abort: (r) => controller.abort(r),
      received: process.hrtime.bigint(),
    });
  } catch (err) {
    // The chain's outer end answers errors.
    writeError(res, err);
  }
  return events;
}

test('AM-17: a bug escaping the handler is the Panic stage, with upstream’s status', async () => {
  const events = await serve('/api/v1/namespaces/ns/pods/p', () =>
    Promise.reject(new TypeError('x is undefined')),
  );
  assert.deepEqual(
    events.map((e) => [e.stage, e.responseStatus]),
    [
      ['RequestReceived', undefined],
      [
        'Panic',
        {
          metadata: {},
          status: 'Failure',
          message: "APIServer panic'd: x is undefined",
          reason: 'InternalError',
          code: 500,
        },
      ],
    ],
  );
});

test('AM-17: a Status error is an answer, not a panic; work cut by an aborted request neither', async () => {
  const notFound = await serve('/api/v1/namespaces/ns/pods/p', () =>
    Promise.reject(apiErrors.notFound({ group: '', resource: 'pods' }, 'p')),
  );
  assert.deepEqual(
    notFound.map((e) => [e.stage, e.responseStatus?.code, e.responseStatus?.reason]),
    [
      ['RequestReceived', undefined, undefined],
      ['ResponseComplete', 404, 'NotFound'],
    ],
  );
  const gone = await serve(
    '/api/v1/namespaces/ns/pods/p',
    () => Promise.reject(new Error('client gone')),
    true,
  );
  assert.deepEqual(
    gone.map((e) => e.stage),
    ['RequestReceived', 'ResponseComplete'],
  );
});

test('AM-17: level None: no event at all', async () => {
  const events = await serve('/api/v1/namespaces/ns/pods', (ctx) => {
    ctx.res.writeHead(200);
    ctx.res.end();
    return Promise.resolve();
  });
  assert.deepEqual(events, []);
});
