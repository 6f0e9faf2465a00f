/**
 * The iptables backend that runs the real tools (upstream pkg/util/iptables): `iptables-restore
 * -w 5 -W 100000 --noflush --counters` with the rules on stdin, `iptables-save -t nat` to learn
 * which chains exist, and `iptables -N`/`-C`/`-I` for the jumps from the built-in chains. Given a
 * network namespace, every command runs in it (`ip netns exec NAME ...`), so tests and
 * experiments never touch the host's tables.
 */
import { chainsOf } from './dump.js';
import type { CanaryTables } from '../canary.js';
import type { IptablesBackend } from '../proxier.js';
import { runTool } from '../run-tool.js';
import type { ToolResult } from '../run-tool.js';

export class IptablesError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

export interface IptablesRunnerOptions {
  /** Run in this network namespace (`ip netns exec`). */
  readonly netns?: string;
  /** `ip6tables` tools instead of `iptables` (the IPv6 proxy). */
  readonly ipv6?: boolean;
}

const wait = ['-w', '5', '-W', '100000'];
/** iptables' exit status for a resource problem. */
const resourceProblem = 4;

const newOnly = ['-m', 'conntrack', '--ctstate', 'NEW'];
const comment = (text: string): string[] => ['-m', 'comment', '--comment', text];
const portals = comment('kubernetes service portals');
const external = [...newOnly, ...comment('kubernetes externally-visible service portals')];
const firewall = [...newOnly, ...comment('kubernetes load balancer firewall')];

/** Jumps into the proxy's chains (upstream iptablesJumpChains and the KUBE-FIREWALL ones), in order. */
export const proxyJumps: readonly (readonly [
  table: string,
  from: string,
  to: string,
  args: readonly string[],
])[] = [
  ['filter', 'INPUT', 'KUBE-EXTERNAL-SERVICES', external],
  ['filter', 'FORWARD', 'KUBE-EXTERNAL-SERVICES', external],
  ['filter', 'INPUT', 'KUBE-NODEPORTS', comment('kubernetes health check service ports')],
  ['filter', 'FORWARD', 'KUBE-SERVICES', [...newOnly, ...portals]],
  ['filter', 'OUTPUT', 'KUBE-SERVICES', [...newOnly, ...portals]],
  ['filter', 'FORWARD', 'KUBE-FORWARD', comment('kubernetes forwarding rules')],
  ['filter', 'INPUT', 'KUBE-PROXY-FIREWALL', firewall],
  ['filter', 'OUTPUT', 'KUBE-PROXY-FIREWALL', firewall],
  ['filter', 'FORWARD', 'KUBE-PROXY-FIREWALL', firewall],
  ['nat', 'OUTPUT', 'KUBE-SERVICES', portals],
  ['nat', 'PREROUTING', 'KUBE-SERVICES', portals],
  ['nat', 'POSTROUTING', 'KUBE-POSTROUTING', comment('kubernetes postrouting rules')],
  ['filter', 'INPUT', 'KUBE-FIREWALL', []],
  ['filter', 'OUTPUT', 'KUBE-FIREWALL', []],
];

export class IptablesRunner implements IptablesBackend, CanaryTables {
  readonly #o: IptablesRunnerOptions;

  constructor(o: IptablesRunnerOptions = {}) {
    this.#o = o;
  }

  #tool(name: 'iptables' | 'iptables-restore' | 'iptables-save'): string {
    return this.#o.ipv6 === true ? name.replace('iptables', 'ip6tables') : name;
  }

  #run(tool: string, args: readonly string[], signal: AbortSignal, stdin?: string): Promise<ToolResult> {
    return runTool(tool, args, { netns: this.#o.netns, signal, ...(stdin !== undefined ? { stdin } : {}) });
  }

  async restore(text: string, signal: AbortSignal): Promise<void> {
    const tool = this.#tool('iptables-restore');
    const r = await this.#run(tool, [...wait, '--noflush', '--counters'], signal, text);
    if (r.code !== 0)
      throw new IptablesError(`${tool} failed: ${r.stderr.trim() || `exit ${r.code}`}`, r.code);
  }

  async natChains(signal: AbortSignal): Promise<Set<string>> {
    const tool = this.#tool('iptables-save');
    const r = await this.#run(tool, ['-t', 'nat'], signal);
    if (r.code !== 0)
      throw new IptablesError(`${tool} failed: ${r.stderr.trim() || `exit ${r.code}`}`, r.code);
    return chainsOf(r.stdout, 'nat');
  }

  /** Whether the tools work here (upstream Present: the nat table's POSTROUTING can be listed). */
  async present(signal: AbortSignal): Promise<boolean> {
    try {
      const r = await this.#run(this.#tool('iptables'), [...wait, '-S', 'POSTROUTING', '-t', 'nat'], signal);
      return r.code === 0;
    } catch (err) {
      if (signal.aborted) throw err;
      return false;
    }
  }

  async ensureChain(table: string, chain: string, signal: AbortSignal): Promise<void> {
    const tool = this.#tool('iptables');
    // -N: exit 1 means the chain exists.
    const r = await this.#run(tool, [...wait, '-N', chain, '-t', table], signal);
    if (r.code !== 0 && r.code !== 1) {
      throw new IptablesError(
        `error creating chain "${chain}": ${r.stderr.trim() || `exit ${r.code}`}`,
        r.code,
      );
    }
  }

  async chainExists(table: string, chain: string, signal: AbortSignal): Promise<boolean> {
    const tool = this.#tool('iptables');
    const r = await this.#run(tool, [...wait, '-S', chain, '-t', table], signal);
    // Exit 4: a resource problem (the lock, memory): whether it exists is not known.
    if (r.code === resourceProblem) {
      throw new IptablesError(`${tool} -S ${chain} -t ${table}: ${r.stderr.trim()}`, r.code);
    }
    return r.code === 0;
  }

  async ensureJumps(signal: AbortSignal): Promise<void> {
    const tool = this.#tool('iptables');
    for (const [table, from, to, args] of proxyJumps) {
      // -N: exit 1 means the chain exists.
      const made = await this.#run(tool, [...wait, '-N', to, '-t', table], signal);
      if (made.code !== 0 && made.code !== 1) {
        throw new IptablesError(`${tool} -N ${to} failed: ${made.stderr.trim()}`, made.code);
      }
      const rule = [...args, '-j', to];
      const check = await this.#run(tool, [...wait, '-C', from, '-t', table, ...rule], signal);
      if (check.code === 0) continue;
      const insert = await this.#run(tool, [...wait, '-I', from, '-t', table, ...rule], signal);
      if (insert.code !== 0) {
        throw new IptablesError(`${tool} -I ${from} -j ${to} failed: ${insert.stderr.trim()}`, insert.code);
      }
    }
  }
}
