import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseServeFlags } from './flags.js';

test('--storage etcd: servers required, upstream defaults for the prefix and compaction interval', () => {
  const o = parseServeFlags([
    '--storage',
    'etcd',
    '--etcd-servers',
    'http://127.0.0.1:2379,http://127.0.0.1:2479',
  ]);
  assert.equal(o.storage, 'etcd');
  assert.deepEqual(o.etcd, {
    servers: ['http://127.0.0.1:2379', 'http://127.0.0.1:2479'],
    prefix: '/registry',
    compactionIntervalMs: 300_000,
  });
  const tls = parseServeFlags([
    '--storage=etcd',
    '--etcd-servers=https://etcd:2379',
    '--etcd-prefix=/k8s/',
    '--etcd-cafile=ca.pem',
    '--etcd-certfile=c.pem',
    '--etcd-keyfile=k.pem',
    '--etcd-compaction-interval=0',
  ]);
  assert.deepEqual(tls.etcd, {
    servers: ['https://etcd:2379'],
    prefix: '/k8s',
    compactionIntervalMs: 0,
    caFile: 'ca.pem',
    certFile: 'c.pem',
    keyFile: 'k.pem',
  });
});

test('etcd flags are refused where they mean nothing or are incomplete', () => {
  const refused = (args: string[], message: string): void =>
    assert.throws(() => parseServeFlags(args), { message });
  refused(['--storage', 'etcd'], '--storage etcd needs --etcd-servers');
  refused(['--etcd-servers', 'http://e:2379'], '--etcd-servers is only for --storage etcd');
  refused(
    ['--storage', 'etcd', '--etcd-servers', 'unix:///e.sock'],
    'invalid argument "unix:///e.sock" for "--etcd-servers" flag: the scheme must be http or https',
  );
  refused(
    ['--storage', 'etcd', '--etcd-servers', 'http://e:2379', '--etcd-certfile', 'c.pem'],
    '--etcd-certfile and --etcd-keyfile come together',
  );
  refused(
    ['--storage', 'etcd', '--etcd-servers', 'http://e:2379', '--etcd-prefix', 'registry'],
    'invalid argument "registry" for "--etcd-prefix" flag: must start with /',
  );
  refused(
    ['--storage', 'etcd2'],
    'invalid argument "etcd2" for "--storage" flag: must be sqlite, memory or etcd',
  );
});
