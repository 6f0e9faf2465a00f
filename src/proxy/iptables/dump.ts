/**
 * iptables-save / iptables-restore text as tables of chains and rules (upstream
 * pkg/util/iptables/testing/parse.go in spirit): what the runner reads back to learn which chains
 * exist, and what tests compare.
 */

export interface DumpRule {
  /** The rule line as written (`-A CHAIN ...`). */
  readonly raw: string;
  /** The `--comment` value, unquoted; undefined when the rule has none. */
  readonly comment: string | undefined;
}

export interface DumpChain {
  readonly name: string;
  readonly rules: DumpRule[];
  /** Deleted by a `-X` line. */
  deleted: boolean;
}

export interface DumpTable {
  readonly name: string;
  readonly chains: DumpChain[];
}

export class DumpError extends Error {}

function commentOf(line: string): string | undefined {
  const m = /-m comment --comment ("([^"]*)"|(\S+))/.exec(line);
  if (m === null) return undefined;
  return m[2] ?? m[3];
}

export function parseDump(text: string): DumpTable[] {
  const tables: DumpTable[] = [];
  let table: DumpTable | undefined;
  const chainOf = (name: string): DumpChain => {
    if (table === undefined) throw new DumpError(`chain ${name} outside a table`);
    let c = table.chains.find((x) => x.name === name);
    if (c === undefined) {
      c = { name, rules: [], deleted: false };
      table.chains.push(c);
    }
    return c;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('*')) {
      if (table !== undefined) throw new DumpError(`table ${line.slice(1)} before COMMIT`);
      table = { name: line.slice(1), chains: [] };
      tables.push(table);
    } else if (line === 'COMMIT') {
      if (table === undefined) throw new DumpError('COMMIT outside a table');
      table = undefined;
    } else if (line.startsWith(':')) {
      chainOf(line.slice(1).split(' ')[0] ?? '');
    } else if (line.startsWith('-A ') || line.startsWith('-I ')) {
      const name = line.split(' ')[1] ?? '';
      chainOf(name).rules.push({ raw: line, comment: commentOf(line) });
    } else if (line.startsWith('-X ')) {
      chainOf(line.slice(3).trim()).deleted = true;
    } else {
      throw new DumpError(`cannot parse ${JSON.stringify(line)}`);
    }
  }
  if (table !== undefined) throw new DumpError('no COMMIT line');
  return tables;
}

/** The chain names a dump declares in `table`. */
export function chainsOf(text: string, table: string): Set<string> {
  const t = parseDump(text).find((x) => x.name === table);
  return new Set(t?.chains.map((c) => c.name) ?? []);
}
