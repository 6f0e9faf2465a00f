/**
 * Runs a parsed script (shell-parse.ts) in virtual time: `sleep` advances a clock instead of
 * waiting, files live in a {@link ShellFs} the caller provides, and output goes to a callback.
 * Only the commands whose effect is known are run (`sleep`, `exit`, `true`, `false`, `echo`,
 * `printf`, `cat`, `touch`, `rm`, `mkdir`, `test`/`[`/`[[`, `wc -l`, `awk '{print $N}'`, `ls`,
 * `hostname`, `env`, `sh -c`, `trap`, `export`, ...); any other makes the run throw
 * {@link ShellUnsupported}, and the simulated node keeps its default behaviour for the container.
 * A script still running after `horizonMs` of virtual time, or after `maxSteps` commands, is
 * reported as never ending (`while true; do sleep 1; done`).
 */
import { encodeBytes, hexdumpCanonical } from './bytes.js';
import { ShellUnsupported, parseShell } from './shell-parse.js';
import { runNetTool } from './net-tools.js';
import { grepText, parseGrepArgs } from './grep.js';
import type { NetTool } from './net-tools.js';
import type { ShellNet } from './shell-net.js';
import type { Command, List, Word, WordPart } from './shell-parse.js';

/** A file system refusal the shell reports (`Read-only file system`). */
export class ShellFsError extends Error {}

export interface ShellFs {
  /** The file's content; undefined when there is none. Throws ShellUnsupported when unknowable. */
  read(path: string): string | undefined;
  /** Whether the path is a directory. Throws ShellUnsupported when unknowable. */
  isDir?(path: string): boolean;
  write(path: string, content: string, append: boolean, atMs: number): void;
  remove(path: string, atMs: number): boolean;
}

export interface ShellOptions {
  readonly fs: ShellFs;
  /** The environment; an undefined value is one the simulator cannot know (valueFrom a Secret). */
  readonly env: ReadonlyMap<string, string | undefined>;
  /**
   * Whether variables not in `env` may still be set by the runtime (envFrom, service links): then
   * reading one is unknowable rather than empty.
   */
  readonly openEnv?: boolean;
  /** `$0`, `$1`, ... */
  readonly args?: readonly string[];
  readonly hostname?: string;
  /**
   * Who the processes run as, when the pod says it: a user id other than 0 (root's groups come
   * from the image, which the simulator does not know), its group and supplementary groups.
   */
  readonly identity?: { readonly uid: number; readonly gid: number; readonly groups: readonly number[] };
  /**
   * The namespaced sysctls the pod sets (spec.securityContext.sysctls): `sysctl NAME` prints
   * these; any other key's value is the node's, which the simulator does not know.
   */
  readonly sysctls?: ReadonlyMap<string, string>;
  /**
   * The image's `ip` (`prefix`: how it names itself in errors, busybox `ip: `) and whether the
   * process may change network links (CAP_NET_ADMIN in effect). Without it `ip` is not modelled;
   * with the capability the kernel's links are not known, so only the refusal is.
   */
  readonly ipTool?: { readonly prefix: string; readonly netAdmin: boolean };
  /** A number in 0..32767 (`$RANDOM`). */
  readonly random?: () => number;
  readonly horizonMs?: number;
  readonly maxSteps?: number;
  /**
   * Count `maxSteps` between two waits instead of over the whole run: a run worked out as time
   * passes may go on for as long as it sleeps between its commands.
   */
  readonly stepsPerWait?: boolean;
  /** Output written to the container's stdout (1) or stderr (2), at a virtual time. */
  readonly onOutput?: (atMs: number, fd: 1 | 2, text: string) => void;
  /** Virtual time the run starts at (ms). */
  readonly startMs?: number;
  /** What the script reads on its standard input (`kubectl exec -i`); empty when none. */
  readonly stdin?: string;
  /** `sh -x`: each simple command, expanded, is written to stderr after `+ ` before it runs. */
  readonly xtrace?: boolean;
  /** The pod's network (`kubectl exec` only: a container's own program runs ahead in time). */
  readonly net?: ShellNet;
  /** The network tools of the container's image, by command name. */
  readonly netTools?: ReadonlyMap<string, NetTool>;
}

export interface ShellResult {
  /** The exit status; undefined when the script does not end (within the horizon). */
  readonly code: number | undefined;
  /** Virtual time at the end (ms, from the start). */
  readonly elapsedMs: number;
}

/** `exit N`: unwinds the script (an Error subclass only for the linter's sake). */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
/** The script runs past the horizon: it does not end. */
class Forever extends Error {}

type Out = (text: string) => void;

/** A step of a run: it yields where virtual time jumps ahead (a sleep, a wait for the network). */
type Gen<T> = Generator<void, T, void>;

/** Virtual time and the count of commands run, shared by a shell and its child shells. */
interface Progress {
  t: number;
  steps: number;
}

interface Io {
  readonly stdin: string;
  readonly out: Out;
  readonly err: Out;
}

/** Go-style duration suffixes of busybox/coreutils sleep: `10`, `1.5`, `2m`, `1h`, `infinity`. */
function sleepMs(arg: string): number {
  if (arg === 'infinity' || arg === 'inf') return Infinity;
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(arg);
  if (m === null) throw new ShellUnsupported(`sleep ${arg}`);
  const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * mult * 1000;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function toInt(v: string): number {
  const t = v.trim();
  if (!/^[+-]?\d+$/.test(t)) throw new ShellUnsupported(`not a number: ${v}`);
  return Number(t);
}

class Shell {
  readonly #o: ShellOptions;
  readonly #vars: Map<string, string | undefined>;
  #args: readonly string[];
  readonly #p: Progress;
  #status = 0;

  constructor(
    o: ShellOptions,
    vars: Map<string, string | undefined>,
    args: readonly string[],
    progress: Progress,
  ) {
    this.#o = o;
    this.#vars = vars;
    this.#args = args;
    this.#p = progress;
  }

  get t(): number {
    return this.#p.t;
  }

  #step(): void {
    if (++this.#p.steps > (this.#o.maxSteps ?? 10_000)) throw new Forever();
  }

  /** Virtual time moves on by `ms`: past the horizon the script never ends; else the run may pause. */
  *#wait(ms: number): Gen<void> {
    this.#p.t += ms;
    if (this.#p.t > (this.#o.horizonMs ?? 7 * 86_400_000)) throw new Forever();
    if (ms > 0) {
      if (this.#o.stepsPerWait === true) this.#p.steps = 0;
      yield;
    }
  }

  #var(name: string): string {
    if (name === '?') return String(this.#status);
    if (name === '$') return '1';
    if (name === '#') return String(Math.max(0, this.#args.length - 1));
    if (/^\d$/.test(name)) return this.#args[Number(name)] ?? '';
    if (name === 'RANDOM') return String(this.#o.random?.() ?? 0);
    if (!this.#vars.has(name)) {
      if (this.#o.openEnv === true) throw new ShellUnsupported(`$${name} may be set by the runtime`);
      return '';
    }
    const v = this.#vars.get(name);
    if (v === undefined) throw new ShellUnsupported(`$${name} is not known`);
    return v;
  }

  *#expandPart(p: WordPart): Gen<string> {
    switch (p.t) {
      case 'lit':
      case 'quoted':
        return p.v;
      case 'dq': {
        let out = '';
        for (const q of p.parts) out += yield* this.#expandPart(q);
        return out;
      }
      case 'var': {
        const v = this.#var(p.name);
        return v === '' && p.fallback !== undefined ? yield* this.#expandWord(p.fallback) : v;
      }
      case 'cmd': {
        let captured = '';
        const sub = new Shell(this.#o, new Map(this.#vars), this.#args, this.#p);
        try {
          yield* sub.#list(p.list, { stdin: '', out: (s) => (captured += s), err: () => undefined });
        } catch (e) {
          if (!(e instanceof Exit)) throw e;
        }
        return captured.replace(/\n+$/, '');
      }
      case 'arith':
        return String(this.#arith(yield* this.#expandWord(p.expr)));
    }
  }

  *#expandWord(w: Word): Gen<string> {
    let out = '';
    for (const p of w.parts) out += yield* this.#expandPart(p);
    return out;
  }

  /** Words to fields: unquoted expansions split on blanks, quoted text stays whole. */
  *#fields(words: readonly Word[]): Gen<string[]> {
    const out: string[] = [];
    for (const w of words) {
      let cur = '';
      // Whether `cur` is a field yet: a quoted empty string is one, an empty expansion is not.
      let has = false;
      for (const p of w.parts) {
        const v = yield* this.#expandPart(p);
        if (p.t === 'var' || p.t === 'cmd' || p.t === 'arith') {
          v.split(/[ \t\n]+/).forEach((piece, i) => {
            if (i > 0 && has) {
              out.push(cur);
              cur = '';
              has = false;
            }
            if (piece !== '') {
              cur += piece;
              has = true;
            }
          });
        } else {
          cur += v;
          has = true;
        }
      }
      if (has) out.push(cur);
    }
    return out;
  }

  /** `$((...))`: integers, variables by name, + - * / % ( ), comparisons. */
  #arith(src: string): number {
    const toks = src.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|==|!=|<=|>=|&&|\|\||[-+*/%()<>!]/g) ?? [];
    if (toks.join('') !== src.replace(/\s+/g, '')) throw new ShellUnsupported(`arithmetic ${src}`);
    let i = 0;
    const value = (tok: string): number => (/^\d+$/.test(tok) ? Number(tok) : toInt(this.#var(tok) || '0'));
    const primary = (): number => {
      const tok = toks[i++];
      if (tok === undefined) throw new ShellUnsupported(`arithmetic ${src}`);
      if (tok === '(') {
        const v = or();
        if (toks[i++] !== ')') throw new ShellUnsupported(`arithmetic ${src}`);
        return v;
      }
      if (tok === '-') return -primary();
      if (tok === '+') return primary();
      if (tok === '!') return primary() === 0 ? 1 : 0;
      return value(tok);
    };
    const binary =
      (next: () => number, ops: Record<string, (a: number, b: number) => number>) => (): number => {
        let v = next();
        for (let op = toks[i]; op !== undefined && op in ops; op = toks[i]) {
          i++;
          v = ops[op]!(v, next());
        }
        return v;
      };
    const div = (a: number, b: number): number => {
      if (b === 0) throw new ShellUnsupported('division by zero');
      return Math.trunc(a / b);
    };
    const mul = binary(primary, { '*': (a, b) => a * b, '/': div, '%': (a, b) => a % b });
    const add = binary(mul, { '+': (a, b) => a + b, '-': (a, b) => a - b });
    const cmp = binary(add, {
      '<': (a, b) => +(a < b),
      '>': (a, b) => +(a > b),
      '<=': (a, b) => +(a <= b),
      '>=': (a, b) => +(a >= b),
    });
    const eq = binary(cmp, { '==': (a, b) => +(a === b), '!=': (a, b) => +(a !== b) });
    const and = binary(eq, { '&&': (a, b) => +(a !== 0 && b !== 0) });
    const or = binary(and, { '||': (a, b) => +(a !== 0 || b !== 0) });
    const v = or();
    if (i !== toks.length) throw new ShellUnsupported(`arithmetic ${src}`);
    return v;
  }

  /**
   * Runs `l` in a child shell (`( ... )`, `sh -c`): its variables are a copy and its `exit` ends
   * only it; the time it takes and the steps it counts are the parent's too.
   */
  *#subshell(
    l: List,
    vars: ReadonlyMap<string, string | undefined>,
    args: readonly string[],
    io: Io,
  ): Gen<number> {
    const sub = new Shell(this.#o, new Map(vars), args, this.#p);
    try {
      return yield* sub.#list(l, io);
    } catch (e) {
      if (!(e instanceof Exit)) throw e;
      return e.code;
    }
  }

  list(l: List, io: Io): Gen<number> {
    return this.#list(l, io);
  }

  *#list(l: List, io: Io): Gen<number> {
    for (const item of l.items) {
      let status = yield* this.#pipeline(item.first, io);
      for (const r of item.rest) {
        if ((r.op === '&&' && status === 0) || (r.op === '||' && status !== 0))
          status = yield* this.#pipeline(r.pipeline, io);
      }
      this.#status = status;
    }
    return this.#status;
  }

  *#pipeline(p: { readonly bang: boolean; readonly commands: readonly Command[] }, io: Io): Gen<number> {
    let stdin = io.stdin;
    let status = 0;
    for (const [i, c] of p.commands.entries()) {
      const last = i === p.commands.length - 1;
      let captured = '';
      status = yield* this.#command(
        c,
        last ? { ...io, stdin } : { ...io, stdin, out: (s) => (captured += s) },
      );
      stdin = captured;
    }
    this.#status = p.bang ? (status === 0 ? 1 : 0) : status;
    return this.#status;
  }

  *#command(c: Command, io: Io): Gen<number> {
    this.#step();
    switch (c.t) {
      case 'if': {
        for (const clause of c.clauses)
          if ((yield* this.#list(clause.cond, io)) === 0) return yield* this.#list(clause.body, io);
        return c.otherwise !== undefined ? yield* this.#list(c.otherwise, io) : 0;
      }
      case 'loop': {
        let status = 0;
        for (;;) {
          this.#step();
          const cond = yield* this.#list(c.cond, io);
          if ((cond === 0) === c.until) return status;
          status = yield* this.#list(c.body, io);
        }
      }
      case 'for': {
        let status = 0;
        for (const v of yield* this.#fields(c.items)) {
          this.#vars.set(c.name, v);
          status = yield* this.#list(c.body, io);
        }
        return status;
      }
      case 'group':
        return c.subshell
          ? yield* this.#subshell(c.body, this.#vars, this.#args, io)
          : yield* this.#list(c.body, io);
      case 'simple':
        return yield* this.#simple(c, io);
    }
  }

  *#simple(c: Extract<Command, { t: 'simple' }>, io: Io): Gen<number> {
    const argv = yield* this.#fields(c.words);
    if (argv.length === 0) {
      for (const a of c.assigns) this.#vars.set(a.name, yield* this.#expandWord(a.value));
      return 0;
    }
    // Redirections: stdout/stderr to files (or /dev/null, or each other).
    let out = io.out;
    let err = io.err;
    let stdin = io.stdin;
    for (const r of c.redirects) {
      const target = yield* this.#expandWord(r.target);
      if (r.op === '>&') {
        if (r.fd === 2 && target === '1') err = out;
        else if (r.fd === 1 && target === '2') out = err;
        else throw new ShellUnsupported(`redirect ${r.fd}>&${target}`);
        continue;
      }
      if (r.op === '<') {
        const content = this.#o.fs.read(target);
        if (content === undefined) {
          io.err(`${this.#args[0] ?? 'sh'}: can't open '${target}': No such file or directory\n`);
          return 1;
        }
        stdin = content;
        continue;
      }
      let writer: Out;
      try {
        writer = this.#fileWriter(target, r.op === '>>');
      } catch (e) {
        if (!(e instanceof ShellFsError)) throw e;
        // The shell cannot open the file: it says so and the command does not run.
        io.err(`${this.#args[0] ?? 'sh'}: can't create ${target}: ${e.message}\n`);
        return 1;
      }
      if (r.fd === 2) err = writer;
      else out = writer;
    }
    const env = new Map(this.#vars);
    for (const a of c.assigns) env.set(a.name, yield* this.#expandWord(a.value));
    // The trace goes to the shell's own stderr, whatever the command's redirections.
    if (this.#o.xtrace === true) {
      const words = [...c.assigns.map((a) => `${a.name}=${env.get(a.name) ?? ''}`), ...argv];
      io.err(`+ ${words.map(traceQuote).join(' ')}\n`);
    }
    try {
      return yield* this.#run(argv, { stdin, out, err }, env);
    } catch (e) {
      if (!(e instanceof ShellFsError)) throw e;
      err(`${argv[0] ?? ''}: ${e.message}\n`);
      return 1;
    }
  }

  #fileWriter(path: string, append: boolean): Out {
    if (path === '/dev/null') return () => undefined;
    if (path === '/dev/stdout' || path === '/proc/self/fd/1') return (s) => this.#o.onOutput?.(this.t, 1, s);
    if (path === '/dev/stderr' || path === '/proc/self/fd/2') return (s) => this.#o.onOutput?.(this.t, 2, s);
    // The file is opened (`>` truncating it) before the command runs.
    this.#o.fs.write(path, '', append, this.t);
    return (s) => this.#o.fs.write(path, s, true, this.t);
  }

  #test(args: string[]): boolean {
    const fs = this.#o.fs;
    const unary = (op: string, a: string): boolean => {
      switch (op) {
        case '-n':
          return a !== '';
        case '-z':
          return a === '';
        case '-e':
        case '-f':
        case '-r':
        case '-w':
          return fs.read(a) !== undefined;
        case '-s':
          return (fs.read(a) ?? '') !== '';
        case '-d':
          if (fs.isDir === undefined) throw new ShellUnsupported('test -d');
          return fs.isDir(a);
        default:
          throw new ShellUnsupported(`test ${op}`);
      }
    };
    const ints: Record<string, (a: number, b: number) => boolean> = {
      '-eq': (a, b) => a === b,
      '-ne': (a, b) => a !== b,
      '-lt': (a, b) => a < b,
      '-le': (a, b) => a <= b,
      '-gt': (a, b) => a > b,
      '-ge': (a, b) => a >= b,
    };
    const one = (a: string[]): boolean => {
      if (a[0] === '!') return !one(a.slice(1));
      if (a.length === 0) return false;
      if (a.length === 1) return a[0] !== '';
      if (a.length === 2) return unary(a[0]!, a[1]!);
      if (a.length === 3) {
        const [l, op, r] = a as [string, string, string];
        if (op === '=' || op === '==') return l === r;
        if (op === '!=') return l !== r;
        const f = ints[op];
        if (f !== undefined) return f(toInt(l), toInt(r));
      }
      throw new ShellUnsupported(`test ${a.join(' ')}`);
    };
    return one(args);
  }

  *#run(argv: string[], io: Io, env: Map<string, string | undefined>): Gen<number> {
    const [cmd0, ...args] = argv as [string, ...string[]];
    const name = basename(cmd0);
    const fs = this.#o.fs;
    switch (name) {
      case ':':
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'exit':
        throw new Exit(args[0] !== undefined ? toInt(args[0]) & 255 : this.#status);
      case 'sleep': {
        yield* this.#wait(args.reduce((sum, a) => sum + sleepMs(a), 0));
        return 0;
      }
      case 'echo': {
        let newline = true;
        let rest = args;
        while (rest[0] === '-n' || rest[0] === '-e' || rest[0] === '-ne' || rest[0] === '-en') {
          if (rest[0].includes('n')) newline = false;
          rest = rest.slice(1);
        }
        io.out(`${rest.join(' ')}${newline ? '\n' : ''}`);
        return 0;
      }
      case 'printf': {
        const [fmt, ...vals] = args;
        if (fmt === undefined) return 1;
        let k = 0;
        const text = fmt
          .replace(/%[sd%]/g, (m) => (m === '%%' ? '%' : (vals[k++] ?? '')))
          .replace(/\\n/g, '\n')
          .replace(/\\t/g, '\t');
        io.out(text);
        return 0;
      }
      case 'cat': {
        if (args.some((a) => a.startsWith('-'))) throw new ShellUnsupported(`cat ${args.join(' ')}`);
        if (args.length === 0) {
          io.out(io.stdin);
          return 0;
        }
        let status = 0;
        for (const a of args) {
          const content = fs.read(a);
          if (content === undefined) {
            io.err(`cat: can't open '${a}': No such file or directory\n`);
            status = 1;
          } else io.out(content);
        }
        return status;
      }
      case 'hexdump': {
        if (args[0] !== '-C' || args.length > 2) throw new ShellUnsupported(`hexdump ${args.join(' ')}`);
        const file = args[1];
        const content = file === undefined ? io.stdin : fs.read(file);
        if (content === undefined) {
          io.err(`hexdump: ${file ?? ''}: No such file or directory\n`);
          return 1;
        }
        io.out(hexdumpCanonical(encodeBytes(content)));
        return 0;
      }
      case 'touch':
        for (const a of args) if (fs.read(a) === undefined) fs.write(a, '', true, this.t);
        return 0;
      case 'rm': {
        const files = args.filter((a) => !a.startsWith('-'));
        const force = args.some((a) => a.startsWith('-') && a.includes('f'));
        let status = 0;
        for (const f of files) {
          if (!fs.remove(f, this.t) && !force) {
            io.err(`rm: can't remove '${f}': No such file or directory\n`);
            status = 1;
          }
        }
        return status;
      }
      case 'mv': {
        // busybox mv: the last operand is the destination; into it when it names a directory
        // (ends in `/`, or one of the directories every image has).
        const verbose = args.some((a) => /^-[a-z]*v/.test(a));
        const operands = args.filter((a) => !a.startsWith('-'));
        const dest = operands.pop();
        if (dest === undefined || operands.length === 0) throw new ShellUnsupported('mv without operands');
        const into = dest.endsWith('/') || ['/tmp', '/var/tmp', '/'].includes(dest) || operands.length > 1;
        let status = 0;
        for (const src of operands) {
          const target = into ? `${dest.replace(/\/+$/, '')}/${src.split('/').pop() ?? src}` : dest;
          const content = fs.read(src);
          if (content === undefined) {
            io.err(`mv: can't rename '${src}': No such file or directory\n`);
            status = 1;
            continue;
          }
          fs.write(target, content, false, this.t);
          fs.remove(src, this.t);
          if (verbose) io.out(`'${src}' -> '${target}'\n`);
        }
        return status;
      }
      case 'mkdir':
      case 'cd':
      case 'trap':
      case 'set':
      case 'wait':
      case 'sync':
        return 0;
      case 'export':
      case 'readonly':
        for (const a of args) {
          const eq = a.indexOf('=');
          if (eq > 0) this.#vars.set(a.slice(0, eq), a.slice(eq + 1));
        }
        return 0;
      case 'test':
        return this.#test(args) ? 0 : 1;
      case '[':
      case '[[': {
        const close = name === '[' ? ']' : ']]';
        if (args.at(-1) !== close) throw new ShellUnsupported(`${name} without ${close}`);
        return this.#test(args.slice(0, -1)) ? 0 : 1;
      }
      case 'wc': {
        if (args[0] !== '-l') throw new ShellUnsupported(`wc ${args.join(' ')}`);
        const files = args.slice(1);
        if (files.length === 0) {
          io.out(`${(io.stdin.match(/\n/g) ?? []).length}\n`);
          return 0;
        }
        for (const f of files) {
          const content = fs.read(f);
          if (content === undefined) {
            io.err(`wc: ${f}: No such file or directory\n`);
            return 1;
          }
          io.out(`${(content.match(/\n/g) ?? []).length} ${f}\n`);
        }
        return 0;
      }
      case 'seq': {
        // seq [FIRST [INCREMENT]] LAST, integers only.
        const n = args.map(toInt);
        const [first, step, last] =
          n.length === 1
            ? [1, 1, n[0]!]
            : n.length === 2
              ? [n[0]!, 1, n[1]!]
              : n.length === 3
                ? [n[0]!, n[1]!, n[2]!]
                : [];
        if (first === undefined || step === undefined || last === undefined || step === 0)
          throw new ShellUnsupported(`seq ${args.join(' ')}`);
        let text = '';
        for (let i = first; step > 0 ? i <= last : i >= last; i += step) text += `${i}\n`;
        io.out(text);
        return 0;
      }
      case 'grep': {
        const g = parseGrepArgs(args);
        let input = io.stdin;
        if (g.files.length > 0) {
          if (g.files.length > 1) throw new ShellUnsupported('grep of several files');
          const content = fs.read(g.files[0]!);
          if (content === undefined) {
            io.err(`grep: ${g.files[0]!}: No such file or directory\n`);
            return 2;
          }
          input = content;
        }
        const r = grepText(g, input);
        io.out(r.out);
        return r.code;
      }
      case 'awk': {
        const m = args.length === 1 ? /^\{\s*print \$(\d+)\s*\}$/.exec(args[0]!) : null;
        if (m === null) throw new ShellUnsupported(`awk ${args.join(' ')}`);
        const n = Number(m[1]);
        const lines = io.stdin.split('\n');
        if (lines.at(-1) === '') lines.pop();
        for (const line of lines) {
          const fields = line.trim().split(/\s+/);
          io.out(`${n === 0 ? line : (fields[n - 1] ?? '')}\n`);
        }
        return 0;
      }
      case 'ls': {
        const paths = args.filter((a) => !a.startsWith('-'));
        let status = 0;
        for (const p of paths) {
          if (fs.read(p) === undefined) {
            io.err(`ls: ${p}: No such file or directory\n`);
            status = 1;
          } else io.out(`${p}\n`);
        }
        return status;
      }
      case 'id': {
        // busybox id for a numeric user the image does not name; gid 0 is root's group.
        const who = this.#o.identity;
        if (args.length > 0 || who === undefined || who.uid === 0) throw new ShellUnsupported('id');
        const group = (g: number): string => (g === 0 ? '0(root)' : String(g));
        io.out(`uid=${who.uid} gid=${group(who.gid)} groups=${who.groups.map(group).join(',')}\n`);
        return 0;
      }
      case 'sysctl': {
        // busybox sysctl: `NAME = VALUE`, or only the value with -n; names may use / for .
        const valueOnly = args[0] === '-n';
        const names = valueOnly ? args.slice(1) : args;
        if (names.length === 0 || names.some((n) => n.startsWith('-'))) throw new ShellUnsupported('sysctl');
        for (const n of names) {
          const key = n.replaceAll('/', '.');
          const value = this.#o.sysctls?.get(key);
          if (value === undefined) throw new ShellUnsupported(`sysctl ${key}`);
          io.out(valueOnly ? `${value}\n` : `${key} = ${value}\n`);
        }
        return 0;
      }
      case 'ip': {
        // `ip link add NAME type TYPE` without CAP_NET_ADMIN: the kernel refuses (EPERM).
        const tool = this.#o.ipTool;
        const add = args[0] === 'link' && (args[1] === 'add' || args[1] === 'a');
        if (tool === undefined || !add || tool.netAdmin) throw new ShellUnsupported(`ip ${args.join(' ')}`);
        io.err(`${tool.prefix}RTNETLINK answers: Operation not permitted\n`);
        return 2;
      }
      case 'hostname':
        if (args.length > 0 || this.#o.hostname === undefined) throw new ShellUnsupported('hostname');
        io.out(`${this.#o.hostname}\n`);
        return 0;
      case 'env':
      case 'printenv': {
        if (args.length > 1 || (name === 'env' && args.length > 0)) throw new ShellUnsupported(name);
        if (args.length === 1) {
          if (!env.has(args[0]!)) return 1;
          io.out(`${this.#var(args[0]!)}\n`);
          return 0;
        }
        for (const [k, v] of env) {
          if (v === undefined) throw new ShellUnsupported(`$${k} is not known`);
          io.out(`${k}=${v}\n`);
        }
        return 0;
      }
      case 'sh':
      case 'ash':
      case 'bash': {
        if (args[0] !== '-c' || args[1] === undefined)
          throw new ShellUnsupported(`${name} ${args.join(' ')}`);
        return yield* this.#subshell(parseShell(args[1]), env, [args[2] ?? name, ...args.slice(3)], io);
      }
      default: {
        const tool = this.#o.netTools?.get(name);
        const net = this.#o.net;
        if (tool === undefined || net === undefined) throw new ShellUnsupported(`command ${cmd0}`);
        const r = runNetTool(tool, args, io.stdin, net, (path) => fs.read(path));
        // A failure is reported after the wait; an answer comes before it (nc -w's idle wait).
        if (r.code !== 0) yield* this.#wait(r.elapsedMs);
        if (r.err !== '') io.err(r.err);
        if (r.out !== '') io.out(r.out);
        if (r.file !== undefined) fs.write(r.file.path, r.file.content, false, this.t);
        if (r.code === 0) yield* this.#wait(r.elapsedMs);
        return r.code;
      }
    }
  }
}

/**
 * Runs `list` to its end (or the horizon). Throws ShellUnsupported when the script does anything
 * the simulator does not model; partial effects already reported must then be discarded.
 */
/** How `sh -x` shows a word: as is when it is plain, else in single quotes. */
function traceQuote(w: string): string {
  return /^[A-Za-z0-9_./=:,@%+-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

export function runShell(list: List, o: ShellOptions): ShellResult {
  const run = startShell(list, o);
  run.advance(Infinity);
  // advance(Infinity) runs to the end: the horizon or maxSteps bound it.
  return run.result ?? { code: undefined, elapsedMs: run.elapsedMs };
}

/** A script run step by step, so that what it reads (the network, shared files) is read as time passes. */
export interface SteppedShell {
  /**
   * Runs on until virtual time would pass `toMs` (from the run's start) or the script ends.
   * Throws ShellUnsupported when the script does what the simulator does not model.
   */
  advance(toMs: number): void;
  /** The end, once the script has ended (code undefined: it never ends). */
  readonly result: ShellResult | undefined;
  /** Virtual time reached, from the start (ms): where the run waits when it has not ended. */
  readonly elapsedMs: number;
}

/** Starts `list` without running it: {@link SteppedShell.advance} runs it. */
export function startShell(list: List, o: ShellOptions): SteppedShell {
  const start = o.startMs ?? 0;
  const progress: Progress = { t: start, steps: 0 };
  const shell = new Shell(o, new Map(o.env), o.args ?? ['sh'], progress);
  const io: Io = {
    stdin: o.stdin ?? '',
    out: (s) => o.onOutput?.(shell.t, 1, s),
    err: (s) => o.onOutput?.(shell.t, 2, s),
  };
  const gen = shell.list(list, io);
  let result: ShellResult | undefined;
  return {
    advance(toMs) {
      while (result === undefined && progress.t - start <= toMs) {
        try {
          const step = gen.next();
          if (step.done === true) result = { code: step.value, elapsedMs: progress.t - start };
        } catch (e) {
          if (e instanceof Exit) result = { code: e.code, elapsedMs: progress.t - start };
          else if (e instanceof Forever) result = { code: undefined, elapsedMs: progress.t - start };
          else throw e;
        }
      }
    },
    get result() {
      return result;
    },
    get elapsedMs() {
      return progress.t - start;
    },
  };
}
