/**
 * E2E support: one nanokube process per test file, a kubectl bound to it, and the closing check that
 * SIGTERM stops the server cleanly. Call `kubectlSession()` inside a `describe` body.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findKubectl, kubectlSkipReason } from '../../support/kubectl.js';
import { kubectlFor } from './kubectl-runner.js';
import type { Kubectl, KubectlResult, RunOptions } from './kubectl-runner.js';
import { startNanokube } from './nanokube-process.js';
import type { NanokubeProcess, StartOptions } from './nanokube-process.js';

const bin = findKubectl();

/** `skip` option for a suite: the reason when kubectl is missing, else false. */
export const kubectlSkip: string | false = bin === undefined ? kubectlSkipReason : false;

export interface Session {
  readonly server: NanokubeProcess;
  readonly kubectl: Kubectl;
  /** Runs kubectl and asserts exit code 0 (showing stderr otherwise); returns stdout. */
  ok(args: readonly string[], o?: RunOptions): Promise<string>;
  /** Runs kubectl and returns the full result. */
  run(args: readonly string[], o?: RunOptions): Promise<KubectlResult>;
  /**
   * Waits until the controllers have filled a new namespace (default ServiceAccount and
   * kube-root-ca.crt), as a real cluster's e2e framework does, so lists are deterministic.
   */
  namespaceReady(ns: string): Promise<void>;
}

/**
 * `o` is passed to `startNanokube` (e.g. extra `serve` flags); `kubectlBin` picks another kubectl
 * than the 1.27 one (e.g. a newer release).
 */
export function kubectlSession(o: StartOptions = {}, kubectlBin: string | undefined = bin): Session {
  let server: NanokubeProcess | undefined;
  let kubectl: Kubectl | undefined;
  const session: Session = {
    get server() {
      if (server === undefined) throw new Error('nanokube is not running');
      return server;
    },
    get kubectl() {
      if (kubectl === undefined) throw new Error('nanokube is not running');
      return kubectl;
    },
    run: (args, o) => session.kubectl.run(args, o),
    async ok(args, o) {
      const r = await session.kubectl.run(args, o);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
      return r.stdout;
    },
    async namespaceReady(ns) {
      for (let i = 0; i < 100; i++) {
        const sa = await session.kubectl.run(['get', 'serviceaccount', 'default', '-n', ns, '-o', 'name']);
        const ca = await session.kubectl.run([
          'get',
          'configmap',
          'kube-root-ca.crt',
          '-n',
          ns,
          '-o',
          'name',
        ]);
        if (sa.code === 0 && ca.code === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`namespace ${ns} did not get its default ServiceAccount and kube-root-ca.crt`);
    },
  };
  before(async () => {
    server = await startNanokube(o);
    kubectl = kubectlFor(server, kubectlBin);
  });
  after(async () => {
    await server?.stop();
  });
  return session;
}

/** The last test of a suite: SIGTERM ends the server with exit code 0 within a few seconds. */
export function itStopsCleanly(session: Session): void {
  it('nanokube exits 0 on SIGTERM', async () => {
    const exit = await session.server.stop();
    assert.equal(exit.signal, null, exit.stderr);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stderr, /nanokube: SIGTERM received, shutting down/);
    assert.ok(exit.ms < 3000, `shutdown took ${exit.ms} ms`);
  });
}
