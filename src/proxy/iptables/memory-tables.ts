/**
 * iptables kept in memory: the backend of the proxies that simulated nodes run in-process, where
 * there is no kernel to program. It applies `iptables-restore --noflush` input as the tool does
 * and refuses what the tool refuses, so a rule set that would fail on a real node fails here too:
 *
 * - `:CHAIN` creates a user chain, or flushes it when it exists; `-A CHAIN` appends to a chain
 *   that exists; `-X CHAIN` deletes a chain that exists, is empty and that no rule jumps to;
 * - a rule's `-j`/`-g` target is a built-in target or a chain of the same table (NW-12: the proxy
 *   must create every chain it jumps to itself);
 * - the whole input applies or nothing does.
 *
 * `save()` prints the tables as `iptables-save` does (without its header comments and counters).
 */
import type { CanaryTables } from '../canary.js';
import type { IptablesBackend } from '../proxier.js';
import { proxyJumps } from './runner.js';

export class RestoreError extends Error {}

/** The built-in chains of the tables kube-proxy writes. */
const builtinChains: Readonly<Record<string, readonly string[]>> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
};

/** Targets that are not chains (the extensions kube-proxy's rules use, and the standard ones). */
const builtinTargets = new Set([
  'ACCEPT',
  'DROP',
  'RETURN',
  'REJECT',
  'MARK',
  'MASQUERADE',
  'DNAT',
  'SNAT',
  'LOG',
  'CONNMARK',
]);

/** Splits a rule line into words as a shell would, keeping quoted words whole. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(m[1] ?? m[2] ?? '');
  return out;
}

/** The chain a rule jumps or goes to, when it names one. */
function targetOf(rule: string): string | undefined {
  const w = words(rule);
  for (let i = 0; i < w.length - 1; i++) if (w[i] === '-j' || w[i] === '-g') return w[i + 1];
  return undefined;
}

type Tables = Map<string, Map<string, string[]>>;

function emptyTables(): Tables {
  const tables: Tables = new Map();
  for (const [name, chains] of Object.entries(builtinChains)) {
    tables.set(name, new Map(chains.map((c) => [c, []])));
  }
  return tables;
}

function copy(tables: Tables): Tables {
  return new Map([...tables].map(([t, chains]) => [t, new Map([...chains].map(([c, r]) => [c, [...r]]))]));
}

export class MemoryTables implements IptablesBackend, CanaryTables {
  #tables = emptyTables();
  /** How many restores applied (tests; the metrics count the proxier's side). */
  applied = 0;

  restore(text: string): Promise<void> {
    try {
      this.#tables = apply(copy(this.#tables), text);
      this.applied += 1;
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  natChains(): Promise<Set<string>> {
    return Promise.resolve(new Set(this.#tables.get('nat')?.keys() ?? []));
  }

  ensureJumps(): Promise<void> {
    const next = copy(this.#tables);
    for (const [table, from, to, args] of proxyJumps) {
      const chains = next.get(table);
      if (chains === undefined) continue;
      if (!chains.has(to)) chains.set(to, []);
      const rule = [`-A ${from}`, ...args.map((a) => (/\s/.test(a) ? `"${a}"` : a)), `-j ${to}`].join(' ');
      const rules = chains.get(from);
      // -I: first in the chain, once.
      if (rules !== undefined && !rules.includes(rule)) rules.unshift(rule);
    }
    this.#tables = next;
    return Promise.resolve();
  }

  ensureChain(table: string, chain: string): Promise<void> {
    const chains = this.#tables.get(table);
    if (chains === undefined) return Promise.reject(new RestoreError(`table '${table}' does not exist`));
    if (!chains.has(chain)) chains.set(chain, []);
    return Promise.resolve();
  }

  chainExists(table: string, chain: string): Promise<boolean> {
    return Promise.resolve(this.#tables.get(table)?.has(chain) ?? false);
  }

  /**
   * What `iptables -F` and `iptables -X` of every table do (a firewall reload): every chain
   * emptied, every user chain deleted.
   */
  flush(): void {
    this.#tables = emptyTables();
  }

  /** The tables as `iptables-save` prints them: chains declared in order, then their rules. */
  save(): string {
    const out: string[] = [];
    for (const [table, chains] of this.#tables) {
      out.push(`*${table}`);
      const builtin = builtinChains[table] ?? [];
      for (const name of chains.keys()) {
        out.push(builtin.includes(name) ? `:${name} ACCEPT [0:0]` : `:${name} - [0:0]`);
      }
      for (const rules of chains.values()) out.push(...rules);
      out.push('COMMIT');
    }
    return `${out.join('\n')}\n`;
  }

  /** The rules of one chain (empty when it does not exist). */
  rules(table: string, chain: string): readonly string[] {
    return this.#tables.get(table)?.get(chain) ?? [];
  }
}

/** Applies restore input to `tables` (a copy: the caller keeps it only when this returns). */
function apply(tables: Tables, text: string): Tables {
  let table: Map<string, string[]> | undefined;
  let tableName = '';
  const lines = text.split('\n');
  const fail = (n: number, why: string): never => {
    throw new RestoreError(`iptables-restore: line ${n + 1} failed: ${why}`);
  };
  for (const [n, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('*')) {
      if (table !== undefined) fail(n, `table ${line.slice(1)} before COMMIT of ${tableName}`);
      tableName = line.slice(1);
      table = tables.get(tableName);
      if (table === undefined) fail(n, `table '${tableName}' does not exist`);
      continue;
    }
    if (table === undefined) fail(n, 'outside a table');
    const chains = table as Map<string, string[]>;
    const builtin = builtinChains[tableName] ?? [];
    if (line === 'COMMIT') {
      table = undefined;
      continue;
    }
    if (line.startsWith(':')) {
      const name = line.slice(1).split(' ')[0] ?? '';
      // --noflush: a user chain is created or flushed; a built-in chain keeps its rules.
      if (!builtin.includes(name)) chains.set(name, []);
      continue;
    }
    const [op, name = ''] = line.split(' ', 2);
    const rules = chains.get(name);
    if (op === '-A' || op === '-I') {
      if (rules === undefined) fail(n, `chain ${name} does not exist`);
      const target = targetOf(line);
      if (target !== undefined && !builtinTargets.has(target) && !chains.has(target)) {
        fail(n, `chain ${target} (the target of a rule in ${name}) does not exist`);
      }
      if (op === '-A') rules?.push(line);
      else rules?.unshift(`-A${line.slice(2)}`);
    } else if (op === '-X') {
      if (rules === undefined) fail(n, `chain ${name} does not exist`);
      if (builtin.includes(name)) fail(n, `cannot delete built-in chain ${name}`);
      if ((rules?.length ?? 0) > 0) fail(n, `chain ${name} is not empty (Directory not empty)`);
      for (const [from, others] of chains) {
        if (from !== name && others.some((r) => targetOf(r) === name)) {
          fail(n, `chain ${name} is the target of a rule in ${from} (Too many links)`);
        }
      }
      chains.delete(name);
    } else {
      fail(n, `cannot parse ${JSON.stringify(line)}`);
    }
  }
  if (table !== undefined) throw new RestoreError(`iptables-restore: no COMMIT line for table ${tableName}`);
  return tables;
}
