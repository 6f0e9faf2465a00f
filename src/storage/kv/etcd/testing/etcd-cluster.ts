/**
 * Real etcd members for tests, on loopback ports only: one member or a cluster of several, each
 * with its own data directory (in /dev/shm where there is one, so fsync costs nothing), killed
 * and removed by `stop()`. Needs the `etcd` binary (Debian's `etcd-server`; `ETCD` names another);
 * `etcdSkip` says why tests cannot run without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const binary = process.env['ETCD'] ?? 'etcd';

function etcdVersion(): string | undefined {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) return undefined;
  return /etcd Version: (\S+)/.exec(r.stdout)?.[1];
}

const version = etcdVersion();

/** Why etcd tests skip on this machine, or false when they can run. */
export const etcdSkip: string | false =
  version === undefined ? `no etcd binary (${binary}): apt-get install etcd-server, or set ETCD` : false;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** A member's process ended before it answered /health. */
class MemberExited extends Error {
  override readonly name = 'MemberExited';
}

interface Member {
  readonly name: string;
  readonly clientURL: string;
  readonly peerURL: string;
  readonly dataDir: string;
  process: ChildProcess | undefined;
}

export class EtcdCluster {
  readonly #members: Member[];
  readonly #root: string;
  readonly #initialCluster: string;

  private constructor(members: Member[], root: string) {
    this.#members = members;
    this.#root = root;
    this.#initialCluster = members.map((m) => `${m.name}=${m.peerURL}`).join(',');
  }

  /**
   * Starts `size` members (default 1) and resolves once every one answers /health. A member that
   * exits first most likely lost its port to another process between freePort() and its bind
   * (test files run in parallel): the cluster is started again on new ports, up to three times.
   */
  static async start(size = 1): Promise<EtcdCluster> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await EtcdCluster.#startOnce(size);
      } catch (err) {
        if (!(err instanceof MemberExited) || attempt >= 3) throw err;
      }
    }
  }

  static async #startOnce(size: number): Promise<EtcdCluster> {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const root = mkdtempSync(join(base, 'nanokube-etcd-'));
    const members: Member[] = [];
    for (let i = 0; i < size; i++) {
      members.push({
        name: `m${i}`,
        clientURL: `http://127.0.0.1:${await freePort()}`,
        peerURL: `http://127.0.0.1:${await freePort()}`,
        dataDir: join(root, `m${i}`),
        process: undefined,
      });
    }
    const cluster = new EtcdCluster(members, root);
    try {
      for (let i = 0; i < size; i++) cluster.#spawn(i);
      await Promise.all(members.map((m) => cluster.#healthy(m)));
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** The client URLs, as `--etcd-servers` takes them. */
  get endpoints(): string[] {
    return this.#members.map((m) => m.clientURL);
  }

  #spawn(i: number): void {
    const m = this.#members[i]!;
    m.process = spawn(
      binary,
      [
        '--name',
        m.name,
        '--data-dir',
        m.dataDir,
        '--listen-client-urls',
        m.clientURL,
        '--advertise-client-urls',
        m.clientURL,
        '--listen-peer-urls',
        m.peerURL,
        '--initial-advertise-peer-urls',
        m.peerURL,
        '--initial-cluster',
        this.#initialCluster,
        '--initial-cluster-state',
        'new',
        // Fast elections on loopback; leases as short as 1 s are then granted as asked.
        '--heartbeat-interval',
        '20',
        '--election-timeout',
        '200',
        '--log-level',
        'error',
      ],
      { stdio: 'ignore' },
    );
    m.process.on('error', () => undefined);
  }

  async #healthy(m: Member): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const r = await fetch(`${m.clientURL}/health`);
        const body = (await r.json()) as { health?: string };
        if (body.health === 'true') return;
      } catch {
        // not listening yet
      }
      const p = m.process;
      if (p !== undefined && (p.exitCode !== null || p.signalCode !== null)) {
        throw new MemberExited(`etcd member ${m.name} exited before it became healthy`);
      }
      if (Date.now() > deadline) throw new Error(`etcd member ${m.name} did not become healthy`);
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  /** Kills member `i` with SIGKILL (its data stays: `restart(i)` brings it back). */
  kill(i: number): void {
    this.#members[i]?.process?.kill('SIGKILL');
  }

  /** Starts a killed member again and waits until it is healthy. */
  async restart(i: number): Promise<void> {
    const m = this.#members[i];
    if (m === undefined) throw new Error(`no member ${i}`);
    this.#spawn(i);
    await this.#healthy(m);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.#members.map(
        (m) =>
          new Promise<void>((resolve) => {
            const p = m.process;
            if (p === undefined || p.exitCode !== null || p.signalCode !== null) {
              resolve();
              return;
            }
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.#root, { recursive: true, force: true });
  }
}
