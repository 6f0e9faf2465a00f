/**
 * E2E support: runs kubectl 1.27 against a nanokube process with KUBECONFIG set (no extra flags),
 * either to completion or as a long-running watch whose output can be awaited.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findKubectl } from '../../support/kubectl.js';
import type { NanokubeProcess } from './nanokube-process.js';

export interface KubectlResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Extra environment variables (e.g. EDITOR). */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to kubectl's stdin. */
  readonly input?: string;
  readonly timeoutMs?: number;
}

export interface KubectlWatch {
  /** Output so far. */
  readonly stdout: () => string;
  /** Resolves with stdout once it matches `pattern`; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when kubectl has exited by itself or was killed. */
  readonly exited: Promise<void>;
  /** Kills the watch (SIGTERM) and waits for it to exit. */
  kill(): Promise<void>;
}

export interface Kubectl {
  readonly bin: string;
  run(args: readonly string[], o?: RunOptions): Promise<KubectlResult>;
  watch(args: readonly string[]): KubectlWatch;
  /** Writes `text` to `name` in the server's work dir and returns the path. */
  file(name: string, text: string): string;
}

export function kubectlFor(server: NanokubeProcess, bin: string | undefined = findKubectl()): Kubectl {
  if (bin === undefined) throw new Error('kubectl not found');
  const baseEnv = (): NodeJS.ProcessEnv => ({
    ...process.env,
    KUBECONFIG: server.kubeconfigPath,
    // Keeps kubectl's discovery cache out of $HOME.
    KUBECACHEDIR: join(server.workDir, '.kube-cache'),
  });
  const spawnKubectl = (args: readonly string[], env?: Readonly<Record<string, string>>): ChildProcess =>
    spawn(bin, args, { cwd: server.workDir, env: { ...baseEnv(), ...(env ?? {}) }, stdio: 'pipe' });
  return {
    bin,
    run(args, o = {}) {
      return new Promise<KubectlResult>((resolve, reject) => {
        const child = spawnKubectl(args, o.env);
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
        child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`kubectl ${args.join(' ')} timed out\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, o.timeoutMs ?? 20_000);
        child.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        child.once('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
        child.stdin!.end(o.input ?? '');
      });
    },
    watch(args) {
      const child = spawnKubectl(args);
      child.stdin!.end();
      let stdout = '';
      let stderr = '';
      const listeners = new Set<() => void>();
      child.stdout!.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
        for (const l of listeners) l();
      });
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<void>((r) => child.once('close', () => r()));
      return {
        exited,
        stdout: () => stdout,
        waitFor(pattern, timeoutMs = 10_000) {
          return new Promise<string>((resolve, reject) => {
            const check = (): void => {
              if (!pattern.test(stdout)) return;
              listeners.delete(check);
              clearTimeout(timer);
              resolve(stdout);
            };
            const timer = setTimeout(() => {
              listeners.delete(check);
              reject(
                new Error(`watch output never matched ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`),
              );
            }, timeoutMs);
            listeners.add(check);
            check();
          });
        },
        async kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    },
    file(name, text) {
      const path = join(server.workDir, name);
      writeFileSync(path, text, { mode: 0o755 });
      return path;
    },
  };
}

/** Splits a table row on runs of two or more spaces (kubectl's column padding). */
export function columns(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}

/** The lines of `text` without the trailing empty one. */
export function lines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}
