/**
 * Test support: runs the compiled `nanokube serve` (dist/) as a child process, the way a user does,
 * and waits for its ready line.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Path of the compiled CLI. */
export const distCli = join(repoRoot, 'dist', 'nanokube.js');

/** A reason to skip tests that need the compiled CLI, or false when it is there. */
export const skipWithoutDist: string | false = existsSync(distCli)
  ? false
  : `${distCli} is missing: run \`npm run build\` first`;

export interface SpawnedServer {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfigPath: string;
  /** The figure of the process's own ready line, in seconds. */
  readonly readySeconds: number;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for exit; resolves with the exit code (null when killed by a signal). */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL, then waits for exit. */
  kill(): Promise<void>;
}

export interface SpawnOptions {
  readonly dataDir: string;
  readonly timeoutMs?: number;
  readonly extraArgs?: readonly string[];
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

export function spawnServer(o: SpawnOptions): Promise<SpawnedServer> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  const child = spawn(
    process.execPath,
    [distCli, 'serve', '--data-dir', o.dataDir, '--secure-port', '0', ...(o.extraArgs ?? [])],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return new Promise<SpawnedServer>((resolvePromise, reject) => {
    const fail = (why: string): void => {
      child.kill('SIGKILL');
      reject(new Error(`${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    const timer = setTimeout(() => fail(`nanokube serve not ready within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      reject(
        new Error(`nanokube serve exited before ready (code ${code}, signal ${signal})\nstderr: ${err}`),
      );
    };
    child.once('exit', onExit);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const ready = /nanokube ready in ([\d.]+)s: serving (https:\/\/\S+)/.exec(out);
      const kc = /export KUBECONFIG=(\S+)/.exec(out);
      if (ready === null || kc === null) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const url = ready[2]!;
      resolvePromise({
        child,
        pid: child.pid!,
        url,
        port: Number(new URL(url).port),
        dataDir: o.dataDir,
        kubeconfigPath: kc[1]!,
        readySeconds: Number(ready[1]),
        stderr: () => err,
        async stop(graceMs = 10_000) {
          const done = exited(child);
          const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.kill('SIGTERM');
          const code = await done;
          clearTimeout(force);
          return code;
        },
        async kill() {
          const done = exited(child);
          child.kill('SIGKILL');
          await done;
        },
      });
    });
  });
}
