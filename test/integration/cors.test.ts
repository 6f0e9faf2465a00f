/**
 * Integration (AM-22): --cors-allowed-origins. An allowed origin is echoed with upstream's
 * CORS headers; a preflight OPTIONS from it is answered before authentication; other origins get
 * nothing; unanchored patterns (CVE-2022-1996) stop the server at start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateCorsAllowedOrigins } from '../../src/apiserver/filters/cors.js';
import { FlagError, parseServeFlags } from '../../src/cmd/serve/flags.js';
import { startServer } from '../../src/cmd/serve/start.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const help =
  "help: List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring to the start with '^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

describe('CORS (AM-22)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      controllers: false,
      // Without credentials a request is refused (401): the preflight must be answered before.
      anonymousAuth: false,
      corsAllowedOrigins: ['^https://good\\.example\\.com$', '//[a-z]+\\.trusted\\.io(:|$)'],
    });
  });
  after(() => server.stop());

  test('an allowed origin is echoed with the allowed methods, headers and credentials', async () => {
    const res = await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { origin: 'https://good.example.com' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'https://good.example.com');
    assert.equal(res.headers['access-control-allow-methods'], 'POST, GET, OPTIONS, PUT, DELETE, PATCH');
    assert.equal(
      res.headers['access-control-allow-headers'],
      'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
    );
    assert.equal(res.headers['access-control-expose-headers'], 'Date');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    const port = await server.request('GET', '/version', {
      headers: { origin: 'http://api.trusted.io:8080' },
    });
    assert.equal(port.headers['access-control-allow-origin'], 'http://api.trusted.io:8080');
  });

  test('another origin gets no CORS headers (and the request is served as usual)', async () => {
    for (const origin of [
      'https://evil.com',
      'https://good.example.com.evil.com',
      'https://evilgood.example.com',
    ]) {
      const res = await server.request('GET', '/version', { headers: { origin } });
      assert.equal(res.status, 200, origin);
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
    }
  });

  test('a preflight from an allowed origin is answered 204 without authentication; from another, authentication decides', async () => {
    const pre = await server.request('OPTIONS', '/api/v1/namespaces/default/configmaps', {
      credentials: 'none',
      headers: { origin: 'https://good.example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'https://good.example.com');
    assert.equal(pre.text, '');
    const other = await server.request('OPTIONS', '/api/v1/namespaces/default/configmaps', {
      credentials: 'none',
      headers: { origin: 'https://evil.com' },
    });
    assert.equal(other.status, 401);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });
});

describe('unanchored CORS patterns are refused at start (AM-22)', () => {
  test('the rule: ^ or // before the host, $ or : after it; empty values refused', () => {
    assert.deepEqual(
      validateCorsAllowedOrigins(['^https://a\\.com$', '//a\\.com(:|$)', 'https://a.com:']),
      [],
    );
    assert.deepEqual(validateCorsAllowedOrigins(['example\\.com']), [
      `--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host in the origin header, ${help}`,
    ]);
    assert.equal(validateCorsAllowedOrigins(['^example\\.com']).length, 1, 'start only');
    assert.equal(validateCorsAllowedOrigins(['example\\.com$']).length, 1, 'end only');
    assert.deepEqual(validateCorsAllowedOrigins(['']), [`empty value in --cors-allowed-origins, ${help}`]);
    assert.match(
      validateCorsAllowedOrigins(['^(a$'])[0] ?? '',
      /^--cors-allowed-origins has an invalid regular expression: error parsing regexp/,
    );
  });

  test('nanokube serve refuses the flag; the server refuses the option', async () => {
    assert.throws(
      () => parseServeFlags(['--cors-allowed-origins', '^https://ok\\.com$,example\\.com']),
      (err: unknown) =>
        err instanceof FlagError &&
        err.message ===
          `--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host in the origin header, ${help}`,
    );
    assert.deepEqual(parseServeFlags(['--cors-allowed-origins=^https://ok\\.com$']).corsAllowedOrigins, [
      '^https://ok\\.com$',
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'nanokube-cors-'));
    try {
      await assert.rejects(
        startServer({
          dataDir: dir,
          storage: 'memory',
          bindAddress: '127.0.0.1',
          securePort: 0,
          controllers: false,
          corsAllowedOrigins: ['.*'],
        }),
        /does not pin to start\/end of host in the origin header/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
