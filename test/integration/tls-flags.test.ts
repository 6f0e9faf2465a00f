/**
 * Integration: `--tls-min-version` and `--tls-cipher-suites` decide what a TLS client can
 * negotiate, as kube-apiserver's tls.Config does (TLS 1.3 suites always on).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createFrontDoor } from '../../src/apiserver/front-door.js';
import { tlsCipherSuites, tlsMinVersion, tlsServingOptions } from '../../src/apiserver/tls-options.js';
import { ensurePki } from '../../src/cmd/serve/pki.js';
import type { Pki } from '../../src/cmd/serve/pki.js';
import { startTestServer } from '../support/server.js';

/** The protocol and suite a handshake settled on, or the error that ended it. */
function handshake(port: number, ca: string, o: ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ca, ...o });
    socket.once('secureConnect', () => {
      resolve(`${String(socket.getProtocol())} ${socket.getCipher().standardName}`);
      socket.destroy();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(`refused ${err.code ?? err.message}`));
  });
}

describe('--tls-min-version and --tls-cipher-suites', () => {
  let dir: string;
  let pki: Pki;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nanokube-tls-'));
    pki = await ensurePki(dir, ['127.0.0.1']);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function door(
    minVersion: string,
    suites?: readonly string[],
  ): Promise<{ port: number; close(): void }> {
    const server = createFrontDoor({
      key: pki.servingKey,
      cert: pki.servingCert,
      ca: pki.caCert,
      serving: {
        tls: tlsServingOptions({
          minVersion: tlsMinVersion(minVersion),
          ...(suites !== undefined ? { ciphers: tlsCipherSuites(suites).openssl } : {}),
        }),
      },
      onRequest: (_req, res) => {
        res.end();
        return Promise.resolve();
      },
      onUpgrade: (_req, socket) => socket.destroy(),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, close: () => server.close() };
  }

  it('VersionTLS13 refuses TLS 1.2 clients; the default (VersionTLS12) refuses TLS 1.1', async () => {
    const v13 = await door('VersionTLS13');
    try {
      assert.match(await handshake(v13.port, pki.caCert, { maxVersion: 'TLSv1.2' }), /^refused /);
      assert.match(await handshake(v13.port, pki.caCert, {}), /^TLSv1\.3 /);
    } finally {
      v13.close();
    }
    const v12 = await door('');
    try {
      const old = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' } as const;
      assert.match(await handshake(v12.port, pki.caCert, old), /^refused /);
      assert.match(await handshake(v12.port, pki.caCert, { maxVersion: 'TLSv1.2' }), /^TLSv1\.2 /);
    } finally {
      v12.close();
    }
  });

  it('VersionTLS10 serves TLS 1.0 clients, as Go does when asked', async () => {
    const v10 = await door('VersionTLS10');
    try {
      const old = { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } as const;
      assert.match(await handshake(v10.port, pki.caCert, old), /^TLSv1 /);
    } finally {
      v10.close();
    }
  });

  it('the listed suites only, for TLS 1.2; TLS 1.3 unaffected; insecure ones warned about', async () => {
    const lines: string[] = [];
    const log = {
      v: () => undefined,
      info: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
    };
    const s = await startTestServer({
      controllers: false,
      log,
      tlsCipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256'],
    });
    try {
      const v12 = { maxVersion: 'TLSv1.2' } as const;
      assert.equal(
        await handshake(s.port, s.pki.caCert, { ...v12, ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' }),
        'TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
      );
      assert.match(
        await handshake(s.port, s.pki.caCert, { ...v12, ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }),
        /^refused /,
      );
      assert.match(await handshake(s.port, s.pki.caCert, {}), /^TLSv1\.3 /);
      assert.ok(lines.includes("Use of insecure cipher 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256' detected."));
      assert.equal((await s.request('GET', '/version')).status, 200);
    } finally {
      await s.stop();
    }
  });
});
