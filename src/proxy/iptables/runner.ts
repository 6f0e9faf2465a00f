/**
 * The iptables backend that runs the real tools (upstream pkg/util/iptables): `iptables-restore
 * -w 5 -W 100000 --noflush --counters` with the rules on stdin, `iptables-save -t nat` to learn
 * which chains exist, and `iptables -N`/`-C`/`-I` for the jumps from the built-in chains. Given a
 * network namespace, every command runs in it (`ip netns exec NAME ...`), so tests and
 * experiments never touch the host's tables.
 */
import { spawn } from 'node:child_process';
import { chainsOf } from './dump.js';
import type { IptablesBackend } from '../proxier.js';

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

/** Jumps into the proxy's chains (upstream iptablesJumpChains and the KUBE-FIREWALL ones). */
const jumps: readonly { table: string; from: string; args: readonly string[]; to: string }[] = [
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-EXTERNAL-SERVICES',
    args: [
      '-m',
      'conntrack',
      '--ctstate',
      'NEW',
      '-m',
      'comment',
      '--comment',
      'kubernetes externally-visible service portals',
    ],
  },
  {
    table: 'filter',
    from: 'FORWARD',
    to: 'KUBE-EXTERNAL-SERVICES',
    args: [
      '-m',
      'conntrack',
      '--ctstate',
      'NEW',
      '-m',
      'comment',
      '--comment',
      'kubernetes externally-visible service portals',
    ],
  },
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-NODEPORTS',
    args: ['-m', 'comment', '--comment', 'kubernetes health check service ports'],
  },
  {
    table: 'filter',
    from: 'FORWARD',
    to: 'KUBE-SERVICES',
    args: ['-m', 'conntrack', '--ctstate', 'NEW', '-m', 'comment', '--comment', 'kubernetes service portals'],
  },
  {
    table: 'filter',
    from: 'OUTPUT',
    to: 'KUBE-SERVICES',
    args: ['-m', 'conntrack', '--ctstate', 'NEW', '-m', 'comment', '--comment', 'kubernetes service portals'],
  },
  {
    table: 'filter',
    from: 'FORWARD',
    to: 'KUBE-FORWARD',
    args: ['-m', 'comment', '--comment', 'kubernetes forwarding rules'],
  },
  {
    table: 'filter',
    from: 'INPUT',
    to: 'KUBE-PROXY-FIREWALL',
    args: [
      '-m',
      'conntrack',
      '--ctstate',
      'NEW',
      '-m',
      'comment',
      '--comment',
      'kubernetes load balancer firewall',
    ],
  },
  {
    table: 'filter',
    from: 'OUTPUT',
    to: 'KUBE-PROXY-FIREWALL',
    args: [
      '-m',
      'conntrack',
      '--ctstate',
      'NEW',
      '-m',
      'comment',
      '--comment',
      'kubernetes load balancer firewall',
    ],
  },
  {
    table: 'filter',
    from: 'FORWARD',
    to: 'KUBE-PROXY-FIREWALL',
    args: [
      '-m',
      'conntrack',
      '--ctstate',
      'NEW',
      '-m',
      'comment',
      '--comment',
      'kubernetes load balancer firewall',
    ],
  },
  {
    table: 'nat',
    from: 'OUTPUT',
    to: 'KUBE-SERVICES',
    args: ['-m', 'comment', '--comment', 'kubernetes service portals'],
  },
  {
    table: 'nat',
    from: 'PREROUTING',
    to: 'KUBE-SERVICES',
    args: ['-m', 'comment', '--comment', 'kubernetes service portals'],
  },
  {
    table: 'nat',
    from: 'POSTROUTING',
    to: 'KUBE-POSTROUTING',
    args: ['-m', 'comment', '--comment', 'kubernetes postrouting rules'],
  },
  { table: 'filter', from: 'INPUT', to: 'KUBE-FIREWALL', args: [] },
  { table: 'filter', from: 'OUTPUT', to: 'KUBE-FIREWALL', args: [] },
];

export class IptablesRunner implements IptablesBackend {
  readonly #o: IptablesRunnerOptions;

  constructor(o: IptablesRunnerOptions = {}) {
    this.#o = o;
  }

  #tool(name: 'iptables' | 'iptables-restore' | 'iptables-save'): string {
    return this.#o.ipv6 === true ? name.replace('iptables', 'ip6tables') : name;
  }

  /** Runs a tool; resolves its exit code and output (rejects only when it cannot start). */
  #run(
    tool: string,
    args: readonly string[],
    signal: AbortSignal,
    stdin?: string,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const [cmd, argv] =
      this.#o.netns === undefined ? [tool, args] : ['ip', ['netns', 'exec', this.#o.netns, tool, ...args]];
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, argv, { signal, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin ?? '');
    });
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

  async ensureJumps(signal: AbortSignal): Promise<void> {
    const tool = this.#tool('iptables');
    for (const j of jumps) {
      // -N: exit 1 means the chain exists.
      const made = await this.#run(tool, [...wait, '-N', j.to, '-t', j.table], signal);
      if (made.code !== 0 && made.code !== 1) {
        throw new IptablesError(`${tool} -N ${j.to} failed: ${made.stderr.trim()}`, made.code);
      }
      const rule = [...j.args, '-j', j.to];
      const check = await this.#run(tool, [...wait, '-C', j.from, '-t', j.table, ...rule], signal);
      if (check.code === 0) continue;
      const insert = await this.#run(tool, [...wait, '-I', j.from, '-t', j.table, ...rule], signal);
      if (insert.code !== 0) {
        throw new IptablesError(
          `${tool} -I ${j.from} -j ${j.to} failed: ${insert.stderr.trim()}`,
          insert.code,
        );
      }
    }
  }
}
