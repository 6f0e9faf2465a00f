/**
 * E2E support: runs the real `nanokube serve` CLI from dist/ as a child process on a temporary data
 * dir, and stops it with SIGTERM. Builds dist/ once when it is missing.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const cliPath = join(repoRoot, 'dist/nanokube.js');

/**
 * Builds dist/ (tsc, then the bundle: `npm run build`) unless the CLI entry is already there. tsc
 * alone writes dist/cmd/nanokube.js, not the bundled dist/nanokube.js these tests run.
 */
export function ensureBuilt(): void {
  if (existsSync(cliPath)) return;
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (!existsSync(cliPath)) throw new Error(`build did not produce ${cliPath}`);
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Milliseconds from SIGTERM to exit. */
  readonly ms: number;
  readonly stderr: string;
}

export interface NanokubeProcess {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
  /** A scratch folder for manifests and scripts, removed on stop. */
  readonly workDir: string;
  readonly readyLine: string;
  /** Sends SIGTERM, waits for exit and removes the temp folders. */
  stop(): Promise<ExitInfo>;
  /** Kills the process with SIGKILL (a crash: nothing is released); `stop()` still cleans up. */
  kill(): void;
}

const readyPattern = /^nanokube ready in \d+\.\d{3}s: serving (https:\/\/\S+) /m;
const kubeconfigPattern = /^ {2}export KUBECONFIG=(\S+)$/m;

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
}

export interface StartOptions {
  readonly timeoutMs?: number;
  /** Extra `serve` flags, e.g. `--runtime-config=api/alpha=true`. */
  readonly args?: readonly string[];
  /** A data dir the caller owns (kept after stop, e.g. to read the database file). */
  readonly dataDir?: string;
}

export async function startNanokube(o: StartOptions = {}): Promise<NanokubeProcess> {
  ensureBuilt();
  const base = mkdtempSync(join(tmpdir(), 'nanokube-e2e-'));
  const dataDir = o.dataDir ?? join(base, 'data');
  const workDir = join(base, 'work');
  mkdirSync(workDir);
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'serve',
      '--data-dir',
      dataDir,
      '--secure-port',
      '0',
      // NANOKUBE_TEST_NET_THREAD=1: every server with its network thread (a check of that mode
      // against the whole suite).
      ...(process.env['NANOKUBE_TEST_NET_THREAD'] === '1' ? ['--net-thread'] : []),
      ...(o.args ?? []),
    ],
    {
      cwd: base,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => (stderr += c));
  const ready = await new Promise<{ url: string; kubeconfigPath: string; line: string }>((res, rej) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`nanokube did not print its ready line in time\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, o.timeoutMs ?? 20_000);
    child.stdout.on('data', (c: string) => {
      stdout += c;
      const m = readyPattern.exec(stdout);
      const k = kubeconfigPattern.exec(stdout);
      if (m !== null && k !== null) {
        clearTimeout(timer);
        res({ url: m[1]!, kubeconfigPath: k[1]!, line: m[0] });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      rej(
        new Error(
          `nanokube exited early (code ${code}, signal ${signal})\nstdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    });
  });
  let stopped: Promise<ExitInfo> | undefined;
  return {
    url: ready.url,
    kubeconfigPath: ready.kubeconfigPath,
    dataDir,
    workDir,
    readyLine: ready.line,
    kill() {
      child.kill('SIGKILL');
    },
    stop() {
      stopped ??= (async () => {
        const t0 = performance.now();
        child.kill('SIGTERM');
        const exit = await waitForExit(child);
        const ms = Math.round(performance.now() - t0);
        rmSync(base, { recursive: true, force: true });
        return { ...exit, ms, stderr };
      })();
      return stopped;
    },
  };
}
