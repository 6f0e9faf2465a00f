/**
 * Runs one of the networking tools the proxy drives (iptables, conntrack, ip), optionally inside
 * a network namespace (`ip netns exec NAME tool ...`), with `stdin` as its input. Resolves the exit
 * code and output whatever the code; rejects only when the tool cannot be started (not installed).
 */
import { spawn } from 'node:child_process';

export interface ToolResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunToolOptions {
  /** Run in this network namespace. */
  readonly netns?: string | undefined;
  readonly stdin?: string;
  readonly signal: AbortSignal;
}

export function runTool(tool: string, args: readonly string[], o: RunToolOptions): Promise<ToolResult> {
  const [cmd, argv] =
    o.netns === undefined ? [tool, args] : ['ip', ['netns', 'exec', o.netns, tool, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { signal: o.signal, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.stdin ?? '');
  });
}
