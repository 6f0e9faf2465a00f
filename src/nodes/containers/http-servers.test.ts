import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SimHttpRequest, SimHttpResponse } from '../../machinery/http-exchange.js';
import { DialError, UnknowableAnswer, detectContentType } from './http-answer.js';
import type { ServeContext } from './http-answer.js';
import {
  guestbookServe,
  httpdServe,
  netexecServe,
  porterServe,
  serveHostnameServe,
  testWebserverServe,
} from './http-servers.js';
import type { Serve } from './http-servers.js';
import { ShellUnsupported } from './shell-parse.js';
import { NetFailure } from './shell-net.js';

const now = Date.UTC(2026, 0, 2, 3, 4, 5);

function req(path: string, o: Partial<SimHttpRequest> = {}): SimHttpRequest {
  const q = path.indexOf('?');
  return {
    method: 'GET',
    path: q < 0 ? path : path.slice(0, q),
    rawQuery: q < 0 ? '' : path.slice(q + 1),
    headers: {},
    body: '',
    tls: false,
    ...o,
  };
}

function ctx(o: Partial<ServeContext> = {}): ServeContext {
  return {
    hostname: 'web-0',
    podIP: '10.244.0.5',
    fs: {
      read: (p) => {
        if (p === '/data.json') return '{"image": "nautilus.jpg"}\n';
        if (p.startsWith('/tmp/')) return undefined;
        throw new ShellUnsupported(`${p} may come with the image`);
      },
      isDir: (p) => p === '/' || p === '/tmp',
    },
    state: new Map(),
    log: () => undefined,
    net: {
      resolve: (host) => {
        throw new NetFailure('unresolved', `dial tcp: lookup ${host}: no such host`);
      },
      tcp: () => '',
      udp: () => undefined,
      http: (ip, port) => {
        throw new NetFailure('refused', `dial tcp ${ip}:${port}: connect: connection refused`);
      },
    },
    get: () => {
      throw new DialError('dial tcp: lookup x: no such host');
    },
    now,
    ...o,
  };
}

describe('Go net/http answers', () => {
  it('sniffs the type as http.DetectContentType does', () => {
    assert.equal(detectContentType('<a href="/x">test</a>'), 'text/html; charset=utf-8');
    assert.equal(detectContentType('  <!DOCTYPE html>'), 'text/html; charset=utf-8');
    assert.equal(detectContentType('<abbr>'), 'text/plain; charset=utf-8');
    assert.equal(detectContentType('{"data":""}'), 'text/plain; charset=utf-8');
    assert.equal(detectContentType('\x00\x01'), 'application/octet-stream');
  });
});

describe('agnhost servers over HTTP', () => {
  it('porter answers its variable, as JSON with the method under --json-response', () => {
    const plain = porterServe('foo', false)(req('/any/path'), ctx());
    assert.equal(plain.status, 200);
    assert.equal(plain.body, 'foo');
    assert.equal(plain.headers['Content-Type'], 'text/plain; charset=utf-8');
    assert.equal(plain.headers['Date'], 'Fri, 02 Jan 2026 03:04:05 GMT');
    const json = porterServe('<foo>', true)(req('/', { method: 'PATCH' }), ctx());
    assert.equal(json.body, '{"Method":"PATCH","Body":"\\u003cfoo\\u003e"}');
    assert.equal(json.headers['Content-Type'], 'application/json');
  });

  it('serve-hostname answers the hostname on every path', () => {
    const r = serveHostnameServe(true)(req('/whatever'), ctx());
    assert.deepEqual([r.status, r.body, r.headers['Connection']], [200, 'web-0', 'close']);
  });

  it('netexec: /hostname, /echo with a code, and refuses to invent the time of /', () => {
    const serve = netexecServe();
    assert.equal(serve(req('/hostname'), ctx()).body, 'web-0');
    const echo = serve(req('/echo?msg=hi&code=418'), ctx());
    assert.deepEqual([echo.status, echo.body], [418, 'hi']);
    assert.equal(
      serve(req('/echo?code=x'), ctx()).body,
      `argument 'code' must be an integer or empty, got "x"\n`,
    );
    assert.throws(() => serve(req('/'), ctx()), UnknowableAnswer);
  });

  it('test-webserver serves the image files it knows, 404s what cannot exist, and never lists', () => {
    const serve: Serve = testWebserverServe();
    const data = serve(req('/data.json'), ctx());
    assert.equal(data.status, 200);
    assert.equal(data.body, '{"image": "nautilus.jpg"}\n');
    assert.equal(data.headers['Content-Type'], 'application/json');
    assert.equal(data.headers['Cache-Control'], 'private');
    const missing = serve(req('/tmp/nope'), ctx());
    assert.deepEqual([missing.status, missing.body], [404, '404 page not found\n']);
    const index = serve(req('/x/index.html'), ctx());
    assert.deepEqual([index.status, index.headers['Location']], [301, './']);
    assert.throws(() => serve(req('/etc/passwd'), ctx()), UnknowableAnswer);
    assert.throws(() => serve(req('/'), ctx()), UnknowableAnswer);
  });

  it('httpd serves its document root and answers Apache’s 404', () => {
    const serve = httpdServe('/htdocs');
    const c = ctx({
      fs: {
        read: (p) => (p === '/htdocs/index.html' ? '<h1>It works!</h1>\n' : undefined),
        isDir: (p) => p === '/htdocs',
      },
    });
    const root = serve(req('/'), c);
    assert.deepEqual(
      [root.status, root.body, root.headers['Content-Type']],
      [200, '<h1>It works!</h1>\n', 'text/html'],
    );
    const gone = serve(req('/missing.html'), c);
    assert.equal(gone.status, 404);
    assert.match(gone.body, /<title>404 Not Found<\/title>/);
  });
});

describe('agnhost guestbook', () => {
  it('a frontend sets through the primary and gets from a replica registered with it', () => {
    const primary = guestbookServe({ backendPort: 6379, replicaOf: '' });
    const replica = guestbookServe({ backendPort: 6379, replicaOf: 'agnhost-primary' });
    const frontend = guestbookServe({ backendPort: 6379, replicaOf: '' });
    const states = {
      primary: new Map<string, unknown>(),
      replica: new Map<string, unknown>(),
      frontend: new Map<string, unknown>(),
    };
    const calls: string[] = [];
    // The network: names and addresses to the three servers.
    const get = (host: string, port: number, pathAndQuery: string): SimHttpResponse => {
      calls.push(`${host}:${port}${pathAndQuery}`);
      const [serve, state, ip] =
        host === 'agnhost-primary' || host === '10.0.0.1'
          ? [primary, states.primary, '10.0.0.1']
          : host === 'agnhost-replica' || host === '10.0.0.2'
            ? [replica, states.replica, '10.0.0.2']
            : [undefined, undefined, ''];
      if (serve === undefined || state === undefined)
        throw new DialError(`dial tcp: lookup ${host}: no such host`);
      return serve(req(pathAndQuery), ctx({ state, podIP: ip, get }));
    };
    const ask = (q: string): SimHttpResponse =>
      frontend(req(`/guestbook?${q}`), ctx({ state: states.frontend, podIP: '10.0.0.3', get }));
    assert.equal(ask('cmd=get&key=messages&value=').body, '{"data":""}');
    assert.equal(ask('cmd=set&key=messages&value=TestEntry').body, '{"message":"Updated"}');
    assert.equal(ask('cmd=get&key=messages&value=').body, '{"data":"TestEntry"}');
    // The replica registered once (when first asked, before the set), so the primary pushed
    // the set to its address.
    assert.equal(calls.filter((c) => c.includes('/register')).length, 1);
    assert.ok(calls.includes('10.0.0.2:6379/set?key=messages&value=TestEntry'), calls.join('\n'));
    const bad = ask('cmd=drop');
    assert.deepEqual([bad.status, bad.body], [400, "unsupported cmd: 'drop'\n"]);
  });

  it('a frontend whose backend cannot be reached answers 417 with the error', () => {
    const frontend = guestbookServe({ backendPort: 6379, replicaOf: '' });
    const r = frontend(req('/guestbook?cmd=get&key=k'), ctx());
    assert.deepEqual([r.status, r.body], [417, 'encountered error: dial tcp: lookup x: no such host\n']);
  });
});
