/**
 * A parser for the part of the POSIX shell language that pod specs use in their commands and
 * probes (`sh -c "echo ok >/tmp/health; sleep 10; rm -rf /tmp/health; sleep 600"`, `if [[ -r
 * /data/foo ]] ; then exit 0 ; fi`, `while true; do sleep 1; done`): lists, `&&`/`||`, pipelines,
 * `if`/`while`/`until`/`for`, groups, redirections, quoting, `$VAR`, `${VAR}`, `$(...)` and
 * `$((...))`. What it does not know (`case`, functions, here-documents, globbing) makes it throw
 * {@link ShellUnsupported}: the simulated node then keeps its default behaviour for the container.
 */

/** The script uses shell syntax this parser does not model. */
export class ShellUnsupported extends Error {}

export type WordPart =
  | { readonly t: 'lit'; readonly v: string }
  | { readonly t: 'quoted'; readonly v: string }
  | { readonly t: 'dq'; readonly parts: readonly WordPart[] }
  | { readonly t: 'var'; readonly name: string; readonly fallback?: Word }
  | { readonly t: 'cmd'; readonly list: List }
  | { readonly t: 'arith'; readonly expr: Word };

export interface Word {
  readonly parts: readonly WordPart[];
}

export interface Redirect {
  /** `>`, `>>`, `<`; `>&` duplicates a descriptor (`2>&1`). */
  readonly op: '>' | '>>' | '<' | '>&';
  readonly fd: number;
  readonly target: Word;
}

export type Command =
  | {
      readonly t: 'simple';
      readonly assigns: readonly { readonly name: string; readonly value: Word }[];
      readonly words: readonly Word[];
      readonly redirects: readonly Redirect[];
    }
  | {
      readonly t: 'if';
      readonly clauses: readonly { readonly cond: List; readonly body: List }[];
      readonly otherwise?: List;
    }
  | { readonly t: 'loop'; readonly until: boolean; readonly cond: List; readonly body: List }
  | { readonly t: 'for'; readonly name: string; readonly items: readonly Word[]; readonly body: List }
  | { readonly t: 'group'; readonly body: List; readonly subshell: boolean };

export interface Pipeline {
  readonly bang: boolean;
  readonly commands: readonly Command[];
}

export interface AndOr {
  readonly first: Pipeline;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly pipeline: Pipeline }[];
}

export interface List {
  readonly items: readonly AndOr[];
}

type Token =
  | { readonly k: 'op'; readonly v: string }
  | { readonly k: 'word'; readonly word: Word; readonly bare: string | undefined };

const operators = ['&&', '||', ';;', '>>', '>&', ';', '&', '|', '(', ')', '<', '>', '\n'];

/** The index just after the `)` closing a `$(` or `$((` opened before `i`. */
function closing(src: string, i: number, depth: number): number {
  let d = depth;
  let j = i;
  while (j < src.length) {
    const c = src[j]!;
    if (c === '\\') j += 2;
    else if (c === "'") {
      const end = src.indexOf("'", j + 1);
      if (end < 0) throw new ShellUnsupported('unterminated quote');
      j = end + 1;
    } else if (c === '"') {
      j++;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      j++;
    } else {
      if (c === '(') d++;
      else if (c === ')' && --d === 0) return j + 1;
      j++;
    }
  }
  throw new ShellUnsupported('unterminated $(');
}

class Lexer {
  readonly #src: string;
  #i = 0;

  constructor(src: string) {
    this.#src = src;
  }

  tokens(): Token[] {
    const out: Token[] = [];
    const src = this.#src;
    while (this.#i < src.length) {
      const c = src[this.#i]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        this.#i++;
        continue;
      }
      if (c === '\\' && src[this.#i + 1] === '\n') {
        this.#i += 2;
        continue;
      }
      if (c === '#') {
        while (this.#i < src.length && src[this.#i] !== '\n') this.#i++;
        continue;
      }
      // A descriptor number right before a redirection: `2>`, `2>&1`.
      const fd = /^(\d)(>>|>&|>|<)/.exec(src.slice(this.#i, this.#i + 4));
      if (fd !== null) {
        out.push({ k: 'op', v: `${fd[1]!}${fd[2]!}` });
        this.#i += fd[0].length;
        continue;
      }
      const op = operators.find((o) => src.startsWith(o, this.#i));
      if (op !== undefined) {
        if (op === ';;') throw new ShellUnsupported('case');
        out.push({ k: 'op', v: op });
        this.#i += op.length;
        continue;
      }
      out.push(this.#word());
    }
    return out;
  }

  #word(): Token {
    const src = this.#src;
    const parts: WordPart[] = [];
    let bare = '';
    let isBare = true;
    let lit = '';
    const flush = (): void => {
      if (lit !== '') parts.push({ t: 'lit', v: lit });
      lit = '';
    };
    while (this.#i < src.length) {
      const c = src[this.#i]!;
      if (' \t\r\n;&|()<>'.includes(c)) break;
      if (c === '\\') {
        const next = src[this.#i + 1] ?? '';
        this.#i += 2;
        if (next === '\n') continue;
        flush();
        parts.push({ t: 'quoted', v: next });
        isBare = false;
      } else if (c === "'") {
        const end = src.indexOf("'", this.#i + 1);
        if (end < 0) throw new ShellUnsupported('unterminated quote');
        flush();
        parts.push({ t: 'quoted', v: src.slice(this.#i + 1, end) });
        this.#i = end + 1;
        isBare = false;
      } else if (c === '"') {
        flush();
        parts.push({ t: 'dq', parts: this.#doubleQuoted() });
        isBare = false;
      } else if (c === '$') {
        const part = this.#dollar();
        if (part === undefined) {
          lit += '$';
          bare += '$';
          this.#i++;
          continue;
        }
        flush();
        parts.push(part);
        isBare = false;
      } else if (c === '`') {
        flush();
        parts.push(this.#backquote(false));
        isBare = false;
      } else if (c === '*' || c === '?') {
        // Globbing is not modelled (`$?` never gets here: #dollar reads it), except that a URL
        // (`http://host/echo?msg=x`) names no file of any image: the pattern stays as written.
        const first = parts[0];
        const head = first === undefined ? lit : first.t === 'lit' ? first.v : '';
        if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(head)) throw new ShellUnsupported('glob');
        lit += c;
        bare += c;
        this.#i++;
      } else {
        lit += c;
        bare += c;
        this.#i++;
      }
    }
    flush();
    return { k: 'word', word: { parts }, bare: isBare ? bare : undefined };
  }

  /** `$NAME`, `${NAME}`, `${NAME:-word}`, `$(list)`, `$((expr))`, `$?`, `$1`; undefined: a lone `$`. */
  #dollar(): WordPart | undefined {
    const src = this.#src;
    const rest = src.slice(this.#i + 1);
    if (rest.startsWith('((')) {
      const end = closing(src, this.#i + 1, 0);
      const inner = src.slice(this.#i + 3, end - 2);
      this.#i = end;
      return { t: 'arith', expr: { parts: new Lexer(inner).#doubleQuotedText(inner) } };
    }
    if (rest.startsWith('(')) {
      const end = closing(src, this.#i + 1, 0);
      const inner = src.slice(this.#i + 2, end - 1);
      this.#i = end;
      return { t: 'cmd', list: parseShell(inner) };
    }
    if (rest.startsWith('{')) {
      const end = src.indexOf('}', this.#i + 2);
      if (end < 0) throw new ShellUnsupported('unterminated ${');
      const body = src.slice(this.#i + 2, end);
      this.#i = end + 1;
      const m = /^([A-Za-z_][A-Za-z0-9_]*|\d+|[?#$])(?::-(.*))?$/s.exec(body);
      if (m === null) throw new ShellUnsupported(`\${${body}}`);
      const fallback = m[2];
      return fallback === undefined
        ? { t: 'var', name: m[1]! }
        : { t: 'var', name: m[1]!, fallback: { parts: new Lexer(fallback).#doubleQuotedText(fallback) } };
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|\d|[?#$@*!-])/.exec(rest);
    if (m === null) return undefined;
    if (m[1] === '@' || m[1] === '*' || m[1] === '!' || m[1] === '-') throw new ShellUnsupported(`$${m[1]}`);
    this.#i += 1 + m[1]!.length;
    return { t: 'var', name: m[1]! };
  }

  /**
   * `` `list` ``, the lexer on the opening backquote: inside, a backslash keeps its meaning only
   * before `$`, `` ` ``, `\\` (and `"` within double quotes), as POSIX says.
   */
  #backquote(inDoubleQuotes: boolean): WordPart {
    const src = this.#src;
    let inner = '';
    let i = this.#i + 1;
    for (; i < src.length && src[i] !== '`'; i++) {
      const next = src[i + 1] ?? '';
      if (src[i] === '\\' && ('$`\\'.includes(next) || (inDoubleQuotes && next === '"'))) {
        inner += next;
        i++;
      } else inner += src[i] ?? '';
    }
    if (i >= src.length) throw new ShellUnsupported('unterminated backquote');
    this.#i = i + 1;
    return { t: 'cmd', list: parseShell(inner) };
  }

  /** The parts of a double-quoted string, the lexer positioned on its opening quote. */
  #doubleQuoted(): WordPart[] {
    const src = this.#src;
    this.#i++;
    const parts: WordPart[] = [];
    let lit = '';
    while (this.#i < src.length && src[this.#i] !== '"') {
      const c = src[this.#i]!;
      if (c === '\\' && '$`"\\\n'.includes(src[this.#i + 1] ?? '')) {
        if (src[this.#i + 1] !== '\n') lit += src[this.#i + 1] ?? '';
        this.#i += 2;
      } else if (c === '$') {
        const part = this.#dollar();
        if (part === undefined) {
          lit += '$';
          this.#i++;
        } else {
          if (lit !== '') parts.push({ t: 'lit', v: lit });
          lit = '';
          parts.push(part);
        }
      } else if (c === '`') {
        if (lit !== '') parts.push({ t: 'lit', v: lit });
        lit = '';
        parts.push(this.#backquote(true));
      } else {
        lit += c;
        this.#i++;
      }
    }
    if (this.#i >= src.length) throw new ShellUnsupported('unterminated quote');
    this.#i++;
    if (lit !== '') parts.push({ t: 'lit', v: lit });
    return parts;
  }

  /** Text expanded as inside double quotes (arithmetic, `${X:-word}`), without the quotes. */
  #doubleQuotedText(text: string): WordPart[] {
    const l = new Lexer(`"${text.replace(/"/g, '\\"')}"`);
    return l.#doubleQuoted();
  }
}

const reserved = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'do',
  'done',
  'for',
  'in',
  '{',
  '}',
  '!',
  'case',
  'esac',
  'function',
]);

class Parser {
  readonly #toks: Token[];
  #i = 0;

  constructor(toks: Token[]) {
    this.#toks = toks;
  }

  #peek(): Token | undefined {
    return this.#toks[this.#i];
  }

  #isWord(t: Token | undefined, w: string): boolean {
    return t !== undefined && t.k === 'word' && t.bare === w;
  }

  #isOp(t: Token | undefined, v: string): boolean {
    return t !== undefined && t.k === 'op' && t.v === v;
  }

  #expectWord(w: string): void {
    if (!this.#isWord(this.#peek(), w)) throw new ShellUnsupported(`expected ${w}`);
    this.#i++;
  }

  #skipNewlines(): void {
    while (this.#isOp(this.#peek(), '\n') || this.#isOp(this.#peek(), ';')) this.#i++;
  }

  /** A list up to one of `stops` (reserved words), `)` or the end. */
  list(stops: readonly string[]): List {
    const items: AndOr[] = [];
    for (;;) {
      this.#skipNewlines();
      const t = this.#peek();
      if (t === undefined || this.#isOp(t, ')')) break;
      if (t.k === 'word' && t.bare !== undefined && stops.includes(t.bare)) break;
      items.push(this.#andOr());
      const sep = this.#peek();
      if (this.#isOp(sep, '&')) throw new ShellUnsupported('background jobs');
      if (this.#isOp(sep, ';') || this.#isOp(sep, '\n')) this.#i++;
      else if (
        sep !== undefined &&
        !this.#isOp(sep, ')') &&
        !(sep.k === 'word' && stops.includes(sep.bare ?? ''))
      )
        throw new ShellUnsupported('unexpected token');
    }
    return { items };
  }

  #andOr(): AndOr {
    const first = this.#pipeline();
    const rest: { op: '&&' | '||'; pipeline: Pipeline }[] = [];
    for (;;) {
      const t = this.#peek();
      if (!this.#isOp(t, '&&') && !this.#isOp(t, '||')) break;
      this.#i++;
      while (this.#isOp(this.#peek(), '\n')) this.#i++;
      rest.push({ op: (t as { v: '&&' | '||' }).v, pipeline: this.#pipeline() });
    }
    return { first, rest };
  }

  #pipeline(): Pipeline {
    let bang = false;
    if (this.#isWord(this.#peek(), '!')) {
      bang = true;
      this.#i++;
    }
    const commands = [this.#command()];
    while (this.#isOp(this.#peek(), '|')) {
      this.#i++;
      while (this.#isOp(this.#peek(), '\n')) this.#i++;
      commands.push(this.#command());
    }
    return { bang, commands };
  }

  #command(): Command {
    const t = this.#peek();
    if (t === undefined) throw new ShellUnsupported('missing command');
    if (this.#isOp(t, '(')) {
      this.#i++;
      const body = this.list([]);
      if (!this.#isOp(this.#peek(), ')')) throw new ShellUnsupported('expected )');
      this.#i++;
      return { t: 'group', body, subshell: true };
    }
    if (t.k === 'word' && t.bare !== undefined) {
      switch (t.bare) {
        case '{': {
          this.#i++;
          const body = this.list(['}']);
          this.#expectWord('}');
          return { t: 'group', body, subshell: false };
        }
        case 'if':
          return this.#if();
        case 'while':
        case 'until': {
          this.#i++;
          const cond = this.list(['do']);
          this.#expectWord('do');
          const body = this.list(['done']);
          this.#expectWord('done');
          return { t: 'loop', until: t.bare === 'until', cond, body };
        }
        case 'for':
          return this.#for();
        default:
          if (reserved.has(t.bare) && t.bare !== '!') throw new ShellUnsupported(`unexpected ${t.bare}`);
      }
    }
    return this.#simple();
  }

  #if(): Command {
    const clauses: { cond: List; body: List }[] = [];
    let otherwise: List | undefined;
    this.#i++;
    for (;;) {
      const cond = this.list(['then']);
      this.#expectWord('then');
      const body = this.list(['elif', 'else', 'fi']);
      clauses.push({ cond, body });
      const t = this.#peek();
      this.#i++;
      if (this.#isWord(t, 'elif')) continue;
      if (this.#isWord(t, 'else')) {
        otherwise = this.list(['fi']);
        this.#expectWord('fi');
      } else if (!this.#isWord(t, 'fi')) throw new ShellUnsupported('expected fi');
      break;
    }
    return otherwise === undefined ? { t: 'if', clauses } : { t: 'if', clauses, otherwise };
  }

  #for(): Command {
    this.#i++;
    const name = this.#peek();
    if (name === undefined || name.k !== 'word' || name.bare === undefined) throw new ShellUnsupported('for');
    this.#i++;
    this.#skipNewlines();
    const items: Word[] = [];
    if (this.#isWord(this.#peek(), 'in')) {
      this.#i++;
      for (let t = this.#peek(); t !== undefined && t.k === 'word'; t = this.#peek()) {
        items.push(t.word);
        this.#i++;
      }
    } else throw new ShellUnsupported('for without in');
    this.#skipNewlines();
    this.#expectWord('do');
    const body = this.list(['done']);
    this.#expectWord('done');
    return { t: 'for', name: name.bare, items, body };
  }

  #simple(): Command {
    const assigns: { name: string; value: Word }[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let t = this.#peek(); t !== undefined; t = this.#peek()) {
      if (t.k === 'op') {
        const m = /^(\d?)(>>|>&|>|<)$/.exec(t.v);
        if (m === null) break;
        this.#i++;
        const target = this.#peek();
        if (target === undefined || target.k !== 'word') throw new ShellUnsupported('redirect target');
        this.#i++;
        const op = m[2] as Redirect['op'];
        redirects.push({ op, fd: m[1] !== '' ? Number(m[1]) : op === '<' ? 0 : 1, target: target.word });
        continue;
      }
      // `NAME=value` before the command name is an assignment.
      const first = t.word.parts[0];
      const eq = first?.t === 'lit' ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.v) : null;
      if (words.length === 0 && eq !== null && first?.t === 'lit') {
        const restLit = first.v.slice(eq[0].length);
        const parts = [
          ...(restLit !== '' ? [{ t: 'lit' as const, v: restLit }] : []),
          ...t.word.parts.slice(1),
        ];
        assigns.push({ name: eq[1]!, value: { parts } });
      } else {
        if (words.length === 0 && t.bare !== undefined && reserved.has(t.bare) && t.bare !== '!')
          throw new ShellUnsupported(`unexpected ${t.bare}`);
        words.push(t.word);
      }
      this.#i++;
    }
    if (words.length === 0 && assigns.length === 0 && redirects.length === 0)
      throw new ShellUnsupported('empty command');
    return { t: 'simple', assigns, words, redirects };
  }

  done(): boolean {
    return this.#i >= this.#toks.length;
  }
}

/** Parses a script; throws {@link ShellUnsupported} for what is not modelled. */
export function parseShell(src: string): List {
  const p = new Parser(new Lexer(src).tokens());
  const list = p.list([]);
  if (!p.done()) throw new ShellUnsupported('unexpected token');
  return list;
}

/** A list of one simple command with these literal words (an exec'd argv). */
export function argvCommand(argv: readonly string[]): List {
  const words = argv.map((v) => ({ parts: [{ t: 'quoted' as const, v }] }));
  return {
    items: [
      { first: { bang: false, commands: [{ t: 'simple', assigns: [], words, redirects: [] }] }, rest: [] },
    ],
  };
}

/**
 * The names of the commands a script may run, as written (the first word of each simple command
 * when it is literal text, in command substitutions too); a name computed at run time is not seen.
 */
export function commandNames(list: List): Set<string> {
  const names = new Set<string>();
  const word = (w: Word): void => {
    for (const p of w.parts) part(p);
  };
  const part = (p: WordPart): void => {
    if (p.t === 'cmd') walk(p.list);
    else if (p.t === 'dq') p.parts.forEach(part);
    else if (p.t === 'var' && p.fallback !== undefined) word(p.fallback);
    else if (p.t === 'arith') word(p.expr);
  };
  const command = (c: Command): void => {
    switch (c.t) {
      case 'simple': {
        const first = c.words[0];
        const lit = first?.parts.every((p) => p.t === 'lit' || p.t === 'quoted')
          ? first.parts.map((p) => (p.t === 'lit' || p.t === 'quoted' ? p.v : '')).join('')
          : undefined;
        if (lit !== undefined) names.add(lit.slice(lit.lastIndexOf('/') + 1));
        c.words.forEach(word);
        c.assigns.forEach((a) => word(a.value));
        c.redirects.forEach((r) => word(r.target));
        return;
      }
      case 'if':
        for (const cl of c.clauses) {
          walk(cl.cond);
          walk(cl.body);
        }
        if (c.otherwise !== undefined) walk(c.otherwise);
        return;
      case 'loop':
        walk(c.cond);
        walk(c.body);
        return;
      case 'for':
        c.items.forEach(word);
        walk(c.body);
        return;
      case 'group':
        walk(c.body);
        return;
    }
  };
  const walk = (l: List): void => {
    for (const item of l.items) {
      item.first.commands.forEach(command);
      for (const r of item.rest) r.pipeline.commands.forEach(command);
    }
  };
  walk(list);
  return names;
}
