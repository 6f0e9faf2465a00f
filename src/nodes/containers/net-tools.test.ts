import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grepText, parseGrepArgs } from './grep.js';
import { runNetTool } from './net-tools.js';
import { NetFailure } from './shell-net.js';
import type { ShellNet } from './shell-net.js';

/** A network of one server at 10.0.0.5: HTTP on 80 answering the path, UDP on 81 echoing. */
const net: ShellNet = {
  resolve: (host) => {
    if (host === 'web' || host === '10.0.0.5') return ['10.0.0.5'];
    if (host === 'gone') return ['10.0.0.9'];
    throw new NetFailure('unresolved', `dial tcp: lookup ${host}: no such host`);
  },
  tcp: (ip, port, data) => {
    if (ip === '10.0.0.9') throw new NetFailure('timeout', `dial tcp ${ip}:${port}: i/o timeout`);
    if (port !== 80) throw new NetFailure('refused', `dial tcp ${ip}:${port}: connect: connection refused`);
    return data.startsWith('GET ')
      ? 'HTTP/1.1 200 OK\r\n\r\nhi'
      : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n400 Bad Request';
  },
  udp: (_ip, port, data) => (port === 81 ? data.trim() : undefined),
  http: (ip, port, req) => {
    if (ip === '10.0.0.9') throw new NetFailure('timeout', `dial tcp ${ip}:${port}: i/o timeout`);
    if (port !== 80) throw new NetFailure('refused', `dial tcp ${ip}:${port}: connect: connection refused`);
    return {
      status: req.path === '/missing' ? 404 : 200,
      headers: { 'Content-Type': 'text/plain' },
      body: `${req.method} ${req.path}`,
    };
  },
};

describe('network tools in simulated containers', () => {
  it('OpenBSD nc: the answer, -v on stderr, refusals, timeouts after -w, names that do not resolve', () => {
    const ok = runNetTool('nc-openbsd', ['-v', '-t', '-w', '2', 'web', '80'], 'hostName\n', net);
    assert.deepEqual(ok, {
      code: 0,
      out: 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n400 Bad Request',
      err: 'Connection to web 80 port [tcp/http] succeeded!\n',
      elapsedMs: 0,
    });
    // A kept-alive HTTP answer: nc waits out -w.
    assert.equal(
      runNetTool('nc-openbsd', ['-w', '2', 'web', '80'], 'GET / HTTP/1.1\r\n\r\n', net).elapsedMs,
      2000,
    );
    assert.deepEqual(runNetTool('nc-openbsd', ['-w', '2', 'web', '81'], 'x', net), {
      code: 1,
      out: '',
      err: 'nc: connect to web port 81 (tcp) failed: Connection refused\n',
      elapsedMs: 0,
    });
    assert.equal(runNetTool('nc-openbsd', ['-w', '3', 'gone', '80'], '', net).elapsedMs, 3000);
    assert.equal(
      runNetTool('nc-openbsd', ['nope', '80'], '', net).err,
      'nc: getaddrinfo for host "nope" port 80: Name does not resolve\n',
    );
    const udp = runNetTool('nc-openbsd', ['-w', '1', '-u', '10.0.0.5', '81'], 'hostName\n', net);
    assert.deepEqual([udp.code, udp.out, udp.elapsedMs], [0, 'hostName', 1000]);
  });

  it('curl: the body, -w %{http_code}, -f, and its exit codes 6, 7 and 28', () => {
    assert.deepEqual(runNetTool('curl', ['-s', 'http://web/x'], '', net), {
      code: 0,
      out: 'GET /x',
      err: '',
      elapsedMs: 0,
    });
    assert.equal(
      runNetTool('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', 'http://web/missing'], '', net).out,
      '404',
    );
    assert.equal(runNetTool('curl', ['-sf', 'http://web/missing'], '', net).code, 22);
    assert.deepEqual(runNetTool('curl', ['http://web:81/'], '', net), {
      code: 7,
      out: '',
      err: 'curl: (7) Failed to connect to web port 81: Connection refused\n',
      elapsedMs: 0,
    });
    assert.equal(runNetTool('curl', ['-s', 'http://nope/'], '', net).code, 6);
    const slow = runNetTool('curl', ['-s', '--connect-timeout', '2', 'http://gone/'], '', net);
    assert.deepEqual([slow.code, slow.elapsedMs], [28, 2000]);
  });

  it('busybox wget: -qO- prints, a file is written, errors in its words', () => {
    assert.equal(runNetTool('wget-busybox', ['-qO-', 'http://web/a'], '', net).out, 'GET /a');
    assert.deepEqual(runNetTool('wget-busybox', ['-q', 'http://web/page.html'], '', net).file, {
      path: 'page.html',
      content: 'GET /page.html',
    });
    assert.equal(
      runNetTool('wget-busybox', ['-q', '-O', '-', 'http://web:81/'], '', net).err,
      "wget: can't connect to remote host (10.0.0.5): Connection refused\n",
    );
    assert.equal(
      runNetTool('wget-busybox', ['-qO-', 'http://web/missing'], '', net).err,
      'wget: server returned error: HTTP/1.1 404 Not Found\n',
    );
  });

  it('grep: basic and extended expressions, -v, -c, -q, POSIX classes', () => {
    const text = 'alpha\n\n  \nbeta 12\n';
    assert.deepEqual(grepText(parseGrepArgs(['-v', '^\\s*$']), text), { out: 'alpha\nbeta 12\n', code: 0 });
    assert.deepEqual(grepText(parseGrepArgs(['-c', 'a']), text), { out: '2\n', code: 0 });
    assert.deepEqual(grepText(parseGrepArgs(['-E', '[[:digit:]]+$']), text), { out: 'beta 12\n', code: 0 });
    assert.deepEqual(grepText(parseGrepArgs(['a\\(l\\|e\\)']), text), { out: 'alpha\n', code: 0 });
    assert.deepEqual(grepText(parseGrepArgs(['-q', 'gamma']), text), { out: '', code: 1 });
  });
});
