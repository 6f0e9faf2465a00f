import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodHttpOutcome, SimHttpRequest } from '../../../machinery/http-exchange.js';
import { StatusError } from '../../../machinery/errors.js';
import { rewriteHtml } from './html-rewrite.js';
import { proxyHttp, rootRedirect } from './proxy-transport.js';
import type { ProxiedRequest } from './proxy-transport.js';

const prefix = '/api/v1/namespaces/ns/pods/web:80/proxy';

function request(path: string, o: Partial<ProxiedRequest> = {}): ProxiedRequest {
  return {
    method: 'GET',
    requestPath: `${prefix}${path}`,
    path,
    rawQuery: '',
    headers: { host: '127.0.0.1:6443', authorization: 'Bearer secret', 'x-custom': 'yes' },
    body: () => Promise.resolve('payload'),
    ...o,
  };
}

function answer(
  status: number,
  headers: Record<string, string>,
  body: string,
): () => Promise<PodHttpOutcome> {
  return () => Promise.resolve({ kind: 'answer', response: { status, headers, body } });
}

describe('the proxy’s HTML rewriting (rewriteHTML)', () => {
  it('rewrites URL attributes of the listed tags and re-renders start tags as Go does', () => {
    const out = rewriteHtml(
      '<A HREF=/x Class=\'c\'>t</A><img src="/i.png" alt="/no"/><p data-x="/y">&amp;</p><!-- <a href="/c"> --><script>var a = "<a href=\'/s\'>";</script>',
      (u) => `[${u}]`,
    );
    assert.equal(
      out,
      '<a href="[/x]" class="c">t</A><img src="[/i.png]" alt="/no"/><p data-x="/y">&amp;</p><!-- <a href="/c"> --><script>var a = "<a href=\'/s\'>";</script>',
    );
  });

  it('escapes attribute values as html.EscapeString', () => {
    assert.equal(
      rewriteHtml('<a title="&quot;q&quot; &amp; \'">', (u) => u),
      '<a title="&#34;q&#34; &amp; &#39;">',
    );
  });
});

describe('the proxy handler (UpgradeAwareHandler, Transport)', () => {
  it('redirects a GET or HEAD of the bare proxy path to the path with a slash, keeping the query', () => {
    assert.deepEqual(rootRedirect(request('', { rawQuery: 'method=GET' })), {
      status: 301,
      headers: { Location: `${prefix}/?method=GET` },
      body: '',
    });
    assert.equal(rootRedirect(request('', { method: 'POST' })), undefined);
    assert.equal(rootRedirect(request('/')), undefined);
  });

  it('forwards method, path, query, body and headers (not the credentials)', async () => {
    let seen: SimHttpRequest | undefined;
    const r = await proxyHttp(
      request('/a/b/', { method: 'PUT', rawQuery: 'x=1' }),
      '10.0.0.5:80',
      false,
      (req) => {
        seen = req;
        return answer(200, { 'Content-Type': 'text/plain' }, 'ok')();
      },
    );
    assert.equal(r.body, 'ok');
    assert.deepEqual(seen, {
      method: 'PUT',
      path: '/a/b/',
      rawQuery: 'x=1',
      headers: { host: '127.0.0.1:6443', 'x-custom': 'yes' },
      body: 'payload',
      tls: false,
    });
    // A POST of the bare path goes to `/`.
    await proxyHttp(request('', { method: 'POST' }), '10.0.0.5:80', false, (req) => {
      seen = req;
      return answer(200, {}, '')();
    });
    assert.equal(seen?.path, '/');
  });

  it('moves links and redirects into the backend under the proxy path; drops CORS headers', async () => {
    const page = await proxyHttp(
      request('/'),
      '10.0.0.5:80',
      false,
      answer(
        200,
        { 'Content-Type': 'text/html; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'X-Kept': '1' },
        '<a href="/rewriteme">test</a> <a href="http://10.0.0.5:80/abs/">x</a> <a href="http://elsewhere/">y</a> <a href="rel">z</a>',
      ),
    );
    assert.equal(
      page.body,
      `<a href="${prefix}/rewriteme">test</a> <a href="${prefix}/abs/">x</a> <a href="http://elsewhere/">y</a> <a href="rel">z</a>`,
    );
    assert.deepEqual(page.headers, { 'Content-Type': 'text/html; charset=utf-8', 'X-Kept': '1' });
    const moved = await proxyHttp(
      request('/old'),
      '10.0.0.5:80',
      false,
      answer(302, { Location: '/new?q=1' }, ''),
    );
    assert.deepEqual([moved.status, moved.headers['Location']], [302, `${prefix}/new?q=1`]);
    const plain = await proxyHttp(
      request('/'),
      '10.0.0.5:80',
      false,
      answer(200, { 'Content-Type': 'text/plain' }, '<a href="/x">'),
    );
    assert.equal(plain.body, '<a href="/x">');
  });

  it('turns a failed connection into 503 and an unknowable answer into 502', async () => {
    await assert.rejects(
      proxyHttp(request('/'), '10.0.0.5:81', false, () =>
        Promise.resolve({ kind: 'failed', error: 'dial tcp 10.0.0.5:81: connect: connection refused' }),
      ),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 503 &&
        err.message === 'error trying to reach service: dial tcp 10.0.0.5:81: connect: connection refused',
    );
    await assert.rejects(
      proxyHttp(request('/'), '10.0.0.5:80', false, () =>
        Promise.resolve({ kind: 'unknowable', reason: 'why' }),
      ),
      (err: unknown) => err instanceof StatusError && err.code === 502 && err.message === 'why',
    );
  });
});
