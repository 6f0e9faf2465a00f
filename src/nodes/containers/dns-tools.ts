/**
 * The DNS tools of the images the simulator knows, asking the cluster's DNS server (shell-net.ts
 * `dns`) the way the real ones do: BIND's `dig` and `nslookup` (agnhost's bind-tools, the
 * jessie-dnsutils image) and `getent hosts` (musl in agnhost, glibc in jessie-dnsutils, with
 * `hosts: files dns`). Names go through /etc/resolv.conf's search list and ndots as the resolver
 * would; what is printed is each tool's own text. Output forms the simulator does not reproduce
 * (dig's full report, nslookup's debug mode) are refused as unknowable.
 */
import { isIP } from 'node:net';
import { reverseName } from '../network/cluster-dns.js';
import type { DnsRecord, DnsResponse, DnsType } from '../network/cluster-dns.js';
import { dnsTypes } from '../network/cluster-dns.js';
import { NetFailure } from './shell-net.js';
import type { ShellNet } from './shell-net.js';
import { ShellUnsupported } from './shell-parse.js';

export type DnsTool = 'dig' | 'nslookup' | 'getent-glibc' | 'getent-musl';

export interface DnsToolResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  /** Virtual time the command took (ms): the waits for servers that did not answer. */
  readonly elapsedMs: number;
}

export interface DnsToolContext {
  readonly net: ShellNet;
  /** A file of the container (/etc/resolv.conf, /etc/hosts); undefined when it does not exist. */
  readonly read: (path: string) => string | undefined;
}

/** What the resolver takes from /etc/resolv.conf. */
export interface ResolvConf {
  readonly servers: readonly string[];
  readonly search: readonly string[];
  readonly ndots: number;
  /** Seconds per try, and tries per server (glibc's `timeout`, `attempts`). */
  readonly timeout: number;
  readonly attempts: number;
}

/** Parses /etc/resolv.conf as glibc and BIND do: the last `search`/`domain` line wins, at most three servers. */
export function parseResolvConf(text: string): ResolvConf {
  const servers: string[] = [];
  let search: string[] = [];
  let ndots = 1;
  let timeout = 5;
  let attempts = 2;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...rest] = line.split(/\s+/);
    if (key === 'nameserver' && rest[0] !== undefined && isIP(rest[0]) !== 0 && servers.length < 3)
      servers.push(rest[0]);
    else if (key === 'search') search = rest.filter((d) => d !== '');
    else if (key === 'domain' && rest[0] !== undefined) search = [rest[0]];
    else if (key === 'options') {
      for (const o of rest) {
        const [name, value] = o.split(':');
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) continue;
        if (name === 'ndots') ndots = Math.min(n, 15);
        else if (name === 'timeout') timeout = Math.min(Math.max(n, 1), 30);
        else if (name === 'attempts') attempts = Math.min(Math.max(n, 1), 5);
      }
    }
  }
  return { servers, search: search.map((d) => d.replace(/\.$/, '')), ndots, timeout, attempts };
}

function resolvConf(ctx: DnsToolContext): ResolvConf {
  const text = ctx.read('/etc/resolv.conf');
  return parseResolvConf(text ?? '');
}

/** The names a lookup of `name` tries, in order (absolute, without the final dot). */
export function searchNames(name: string, conf: ResolvConf, useSearch: boolean): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  if (!useSearch || conf.search.length === 0) return [name];
  const dots = name.split('.').length - 1;
  const searched = conf.search.map((d) => `${name}.${d}`);
  return dots >= conf.ndots ? [name, ...searched] : [...searched, name];
}

/** One question to the first server that answers: the answer, or undefined after every server timed out. */
function ask(
  ctx: DnsToolContext,
  servers: readonly string[],
  name: string,
  type: DnsType,
  tcp: boolean,
  clock: { ms: number },
  perServerMs: number,
): DnsResponse | undefined {
  for (const server of servers.length > 0 ? servers : ['127.0.0.1']) {
    if (ctx.net.dns === undefined) throw new ShellUnsupported('the cluster DNS');
    try {
      return ctx.net.dns(server, name, type, tcp);
    } catch (err) {
      if (!(err instanceof NetFailure)) throw err;
      clock.ms += perServerMs;
    }
  }
  return undefined;
}

/** A lookup through the search list: the first answer that is not NXDOMAIN, or the last. */
function lookup(
  ctx: DnsToolContext,
  o: {
    readonly servers: readonly string[];
    readonly names: readonly string[];
    readonly type: DnsType;
    readonly tcp: boolean;
    readonly clock: { ms: number };
    readonly perServerMs: number;
  },
): { readonly name: string; readonly response: DnsResponse } | undefined {
  let last: { name: string; response: DnsResponse } | undefined;
  for (const name of o.names) {
    const response = ask(ctx, o.servers, name, o.type, o.tcp, o.clock, o.perServerMs);
    if (response === undefined) return undefined;
    last = { name, response };
    if (response.rcode !== 'NXDOMAIN') return last;
  }
  return last;
}

/**
 * A record as dig prints it: owner, TTL, class, type and data at BIND's columns (24, 32, 40, 48),
 * reached with tabs of 8; a field that starts past its column is set off by one space.
 */
function recordLine(r: DnsRecord): string {
  let line = r.name;
  let pos = r.name.length;
  const at = (column: number, text: string): void => {
    if (pos < column) {
      while (pos < column) {
        line += '\t';
        pos = (Math.floor(pos / 8) + 1) * 8;
      }
    } else {
      line += ' ';
      pos += 1;
    }
    line += text;
    pos += text.length;
  };
  at(24, String(r.ttl));
  at(32, 'IN');
  at(40, r.type);
  at(48, r.data);
  return line;
}

/** BIND's report when every server timed out (dig exits 9, nslookup 1). */
function noServers(code: number, trailer: string, elapsedMs: number): DnsToolResult {
  return {
    code,
    out: `;; connection timed out; no servers could be reached\n${trailer}`,
    err: '',
    elapsedMs,
  };
}

function typeOf(word: string): DnsType | undefined {
  const t = word.toUpperCase();
  return (dnsTypes as readonly string[]).includes(t) ? (t as DnsType) : undefined;
}

/** BIND dig: `dig [@server] [+options] [-t type] [-x addr] name [type] [class]`. */
function dig(args: readonly string[], ctx: DnsToolContext): DnsToolResult {
  let server: string | undefined;
  let name: string | undefined;
  let type: DnsType | undefined;
  let tcp = false;
  let search = false;
  let short = false;
  let time = 5;
  let tries = 3;
  // The sections and comments dig prints; only the answer alone (or +short) is reproduced.
  const show = new Map<string, boolean>(
    ['cmd', 'comments', 'question', 'answer', 'authority', 'additional', 'stats'].map((k) => [k, true]),
  );
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('@')) server = a.slice(1);
    else if (a.startsWith('+')) {
      const m = /^\+(no)?([a-z]+)(?:=(\d+))?$/.exec(a);
      if (m === null) throw new ShellUnsupported(`dig ${a}`);
      const on = m[1] === undefined;
      const opt = m[2]!;
      if (opt === 'tcp' || opt === 'vc') tcp = on;
      else if (opt === 'search') search = on;
      else if (opt === 'short') short = on;
      else if (opt === 'all') for (const k of show.keys()) show.set(k, on);
      else if (show.has(opt)) show.set(opt, on);
      else if (opt === 'time' && m[3] !== undefined) time = Math.max(1, Number(m[3]));
      else if ((opt === 'tries' || opt === 'retry') && m[3] !== undefined)
        tries = Math.max(1, Number(m[3]) + (opt === 'retry' ? 1 : 0));
      else if (opt === 'recurse' || opt === 'rec') continue;
      else throw new ShellUnsupported(`dig ${a}`);
    } else if (a === '-t') {
      type = typeOf(args[++i] ?? '');
      if (type === undefined) throw new ShellUnsupported(`dig -t ${args[i] ?? ''}`);
    } else if (a === '-x') {
      const ip = args[++i] ?? '';
      if (isIP(ip) === 0) throw new ShellUnsupported(`dig -x ${ip}`);
      name = reverseName(ip);
      type ??= 'PTR';
    } else if (a === '-c') {
      if ((args[++i] ?? '').toUpperCase() !== 'IN') throw new ShellUnsupported('dig -c');
    } else if (a.startsWith('-')) throw new ShellUnsupported(`dig ${a}`);
    else if (name !== undefined && type === undefined && typeOf(a) !== undefined) type = typeOf(a);
    else if (name !== undefined && a.toUpperCase() === 'IN') continue;
    else if (name === undefined) name = a;
    else throw new ShellUnsupported('dig with several names');
  }
  const onlyAnswer = [...show].every(([k, v]) => v === (k === 'answer'));
  if (!short && !onlyAnswer) throw new ShellUnsupported("dig's full report");
  const conf = resolvConf(ctx);
  const clock = { ms: 0 };
  const servers = server !== undefined ? [server] : conf.servers;
  if (name === undefined) throw new ShellUnsupported('dig without a name (the root servers)');
  const found = lookup(ctx, {
    servers,
    names: searchNames(name, conf, search),
    type: type ?? 'A',
    tcp,
    clock,
    perServerMs: time * 1000 * (tcp ? 1 : tries),
  });
  if (found === undefined) return noServers(9, '', clock.ms);
  const answers = found.response.answers;
  const out = answers.map((r) => `${short ? r.data : recordLine(r)}\n`).join('');
  return { code: 0, out, err: '', elapsedMs: clock.ms };
}

/** BIND nslookup, non-interactive: `nslookup [-type=T] [-vc] name [server]`. */
function nslookup(args: readonly string[], ctx: DnsToolContext): DnsToolResult {
  let type: DnsType | undefined;
  let tcp = false;
  let timeout = 2;
  let retry = 3;
  const words: string[] = [];
  for (const a of args) {
    const m = /^-(\w+)(?:=(.*))?$/.exec(a);
    if (m === null) {
      words.push(a);
      continue;
    }
    const [, opt = '', value] = m;
    if (['type', 'querytype', 'query', 'q', 'ty'].includes(opt) && value !== undefined) {
      type = typeOf(value);
      if (type === undefined) throw new ShellUnsupported(`nslookup ${a}`);
    } else if (opt === 'vc') tcp = true;
    else if (opt === 'novc') tcp = false;
    else if (opt === 'timeout' && value !== undefined && /^\d+$/.test(value)) timeout = Number(value);
    else if (opt === 'retry' && value !== undefined && /^\d+$/.test(value)) retry = Number(value);
    else throw new ShellUnsupported(`nslookup ${a}`);
  }
  const [name, server] = words;
  if (name === undefined || words.length > 2) throw new ShellUnsupported('interactive nslookup');
  const conf = resolvConf(ctx);
  if (server !== undefined && isIP(server) === 0)
    throw new ShellUnsupported('nslookup with a server by name');
  const servers = server !== undefined ? [server] : conf.servers;
  const clock = { ms: 0 };
  const perServerMs = timeout * 1000 * (tcp ? 1 : retry);
  let out = '';
  let failed = false;
  const first = lookup(ctx, {
    servers,
    names: searchNames(isIP(name) !== 0 ? reverseName(name) : name, conf, isIP(name) === 0),
    type: type ?? (isIP(name) !== 0 ? 'PTR' : 'A'),
    tcp,
    clock,
    perServerMs,
  });
  if (first === undefined) return noServers(1, '\n', clock.ms);
  const srv = servers[0] ?? '127.0.0.1';
  out += `Server:\t\t${srv}\nAddress:\t${srv}#53\n\n`;
  const print = (records: readonly DnsRecord[]): void => {
    for (const r of records) {
      const owner = r.name.replace(/\.$/, '');
      if (r.type === 'A' || r.type === 'AAAA') out += `Name:\t${owner}\nAddress: ${r.data}\n`;
      else {
        const label =
          r.type === 'CNAME'
            ? 'canonical name = '
            : r.type === 'PTR'
              ? 'name = '
              : r.type === 'SRV'
                ? 'service = '
                : r.type === 'TXT'
                  ? 'text = '
                  : `${r.type.toLowerCase()} = `;
        out += `${owner}\t${label}${r.data}\n`;
      }
    }
  };
  const defaultLookups = type === undefined && isIP(name) === 0;
  const fail = (queried: string, rcode: string): void => {
    out += `** server can't find ${queried}: ${rcode}\n`;
    failed = true;
  };
  if (first.response.rcode !== 'NOERROR') fail(first.name, first.response.rcode);
  else {
    if (!first.response.authoritative) out += 'Non-authoritative answer:\n';
    print(first.response.answers);
    const noAnswer = first.response.answers.length === 0;
    if (noAnswer && !defaultLookups) out += `*** Can't find ${first.name}: No answer\n`;
    if (defaultLookups) {
      // The AAAA lookup of the name at the end of the A answer's CNAME chain.
      let chased = first.name;
      for (const r of first.response.answers) {
        if (r.type === 'CNAME' && r.name.replace(/\.$/, '') === chased) chased = r.data.replace(/\.$/, '');
      }
      const aaaa = ask(ctx, servers, chased, 'AAAA', tcp, clock, perServerMs);
      if (aaaa !== undefined) {
        if (aaaa.rcode !== 'NOERROR') fail(chased, aaaa.rcode);
        else {
          print(aaaa.answers);
          if (aaaa.answers.length === 0 && noAnswer) out += `*** Can't find ${chased}: No answer\n`;
        }
      }
    }
  }
  out += '\n';
  return { code: failed ? 1 : 0, out, err: '', elapsedMs: clock.ms };
}

/** One entry of /etc/hosts: an address and its names (the first canonical). */
interface HostLine {
  readonly ip: string;
  readonly names: readonly string[];
}

function hostsLines(text: string): HostLine[] {
  const out: HostLine[] = [];
  for (const raw of text.split('\n')) {
    const [ip, ...names] = raw.replace(/#.*$/, '').trim().split(/\s+/);
    if (ip !== undefined && isIP(ip) !== 0 && names.length > 0) out.push({ ip, names });
  }
  return out;
}

interface HostEnt {
  readonly ip: string;
  readonly name: string;
  readonly aliases: readonly string[];
}

/** `getent hosts KEY...` over `hosts: files dns`: IPv6 first, then IPv4, as gethostbyname2 asks. */
function getent(args: readonly string[], ctx: DnsToolContext, flavour: 'glibc' | 'musl'): DnsToolResult {
  if (args[0] !== 'hosts' || args.length < 2) throw new ShellUnsupported(`getent ${args.join(' ')}`);
  const hosts = hostsLines(ctx.read('/etc/hosts') ?? '');
  const conf = resolvConf(ctx);
  const clock = { ms: 0 };
  const perServerMs = conf.timeout * 1000 * conf.attempts;
  const fromDns = (key: string, type: 'A' | 'AAAA' | 'PTR'): HostEnt | undefined => {
    const names = type === 'PTR' ? [reverseName(key).slice(0, -1)] : searchNames(key, conf, true);
    for (const n of names) {
      const r = ask(ctx, conf.servers, n, type, false, clock, perServerMs);
      // No server answered, or one failed: the lookup fails (TRY_AGAIN).
      if (r === undefined || r.rcode === 'SERVFAIL') return undefined;
      if (type === 'PTR') {
        const ptr = r.answers.find((x) => x.type === 'PTR');
        if (ptr !== undefined) return { ip: key, name: ptr.data.replace(/\.$/, ''), aliases: [] };
        continue;
      }
      const addr = r.answers.find((x) => x.type === type);
      if (addr !== undefined) {
        const chain = r.answers.filter((x) => x.type === 'CNAME').map((x) => x.name.replace(/\.$/, ''));
        return { ip: addr.data, name: addr.name.replace(/\.$/, ''), aliases: chain };
      }
    }
    return undefined;
  };
  const fromFiles = (key: string, family: 4 | 6): HostEnt | undefined => {
    const k = key.toLowerCase();
    const line = hosts.find((h) => isIP(h.ip) === family && h.names.some((n) => n.toLowerCase() === k));
    return line && { ip: line.ip, name: line.names[0]!, aliases: line.names.slice(1) };
  };
  let out = '';
  let code = 0;
  for (const key of args.slice(1)) {
    let ent: HostEnt | undefined;
    if (isIP(key) !== 0) {
      const line = hosts.find((h) => h.ip === key);
      ent = line ? { ip: key, name: line.names[0]!, aliases: line.names.slice(1) } : fromDns(key, 'PTR');
    } else {
      ent = fromFiles(key, 6) ?? fromDns(key, 'AAAA') ?? fromFiles(key, 4) ?? fromDns(key, 'A');
    }
    if (ent === undefined) {
      code = 2;
      continue;
    }
    out +=
      flavour === 'glibc'
        ? `${ent.ip.padEnd(15)} ${[ent.name, ...ent.aliases].join(' ')}\n`
        : `${ent.ip.padEnd(16)}  ${ent.name}${ent.aliases.map((a, i) => (i === 0 ? `  ${a}` : ` ${a}`)).join('')}\n`;
  }
  return { code, out, err: '', elapsedMs: clock.ms };
}

export function runDnsTool(tool: DnsTool, args: readonly string[], ctx: DnsToolContext): DnsToolResult {
  switch (tool) {
    case 'dig':
      return dig(args, ctx);
    case 'nslookup':
      return nslookup(args, ctx);
    case 'getent-glibc':
      return getent(args, ctx, 'glibc');
    case 'getent-musl':
      return getent(args, ctx, 'musl');
  }
}
