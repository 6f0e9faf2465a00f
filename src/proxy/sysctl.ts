/**
 * kube-proxy's EnsureSysctl: a kernel setting under /proc/sys is read and written only when it
 * differs, here or in a network namespace (net.* settings are per namespace). The iptables proxy
 * needs `net/ipv4/conf/all/route_localnet=1` for node ports on 127.0.0.1: without it the kernel
 * drops loopback-addressed packets DNATed elsewhere.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { runTool } from './run-tool.js';

export const routeLocalnet = 'net/ipv4/conf/all/route_localnet';

export interface SysctlOptions {
  readonly netns?: string | undefined;
  readonly signal: AbortSignal;
}

async function read(name: string, o: SysctlOptions): Promise<string> {
  const path = `/proc/sys/${name}`;
  if (o.netns === undefined) return (await readFile(path, 'utf8')).trim();
  const r = await runTool('cat', [path], { netns: o.netns, signal: o.signal });
  if (r.code !== 0) throw new Error(`reading ${path}: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout.trim();
}

async function write(name: string, value: number, o: SysctlOptions): Promise<void> {
  const path = `/proc/sys/${name}`;
  if (o.netns === undefined) return writeFile(path, `${value}\n`);
  const r = await runTool('tee', [path], { netns: o.netns, signal: o.signal, stdin: `${value}\n` });
  if (r.code !== 0) throw new Error(r.stderr.trim() || `exit ${r.code}`);
}

/** Sets `name` to `value` unless it is already; true when it changed it. Rejects as upstream words it. */
export async function ensureSysctl(name: string, value: number, o: SysctlOptions): Promise<boolean> {
  let current: string | undefined;
  try {
    current = await read(name, o);
  } catch {
    // Upstream ignores a failed read and writes.
  }
  if (current === String(value)) return false;
  try {
    await write(name, value, o);
  } catch (err) {
    throw new Error(
      `can't set sysctl ${name} to ${value}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return true;
}
