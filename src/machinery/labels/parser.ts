/**
 * The label selector grammar of k8s.io/apimachinery/pkg/labels (v0.27): a lexer and a recursive
 * parser producing requirements, failing with upstream's exact messages.
 */
import { SelectorParseError, labelKeyError, newRequirement } from './requirement.js';
import type { LabelRequirement, SelectorOperator } from './requirement.js';

type Token =
  | 'error'
  | 'end'
  | 'closePar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

interface Item {
  readonly tok: Token;
  readonly lit: string;
}

const literalTokens = new Map<string, Token>([
  [')', 'closePar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** Splits the selector into tokens, ending with an `end` token. */
function scan(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  // Go's lexer reads byte 0 at end of input; a NUL in the input ends it the same way.
  const read = (): string => (pos < s.length ? s[pos++]! : '\0');
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      items.push({ tok: 'end', lit: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buffer += c;
        const tok = literalTokens.get(buffer);
        if (tok !== undefined) last = { tok, lit: buffer };
        else if (last !== undefined) {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buffer}'` });
    } else {
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: literalTokens.get(buffer) ?? 'identifier', lit: buffer });
    }
  }
}

class Parser {
  readonly #items: Item[];
  #pos = 0;

  constructor(s: string) {
    this.#items = scan(s);
  }

  /** In value context the keywords `in`/`notin` are plain identifiers. */
  #asValue(item: Item, values: boolean): Item {
    return values && (item.tok === 'in' || item.tok === 'notIn')
      ? { tok: 'identifier', lit: item.lit }
      : item;
  }

  lookahead(values = true): Item {
    return this.#asValue(this.#items[this.#pos]!, values);
  }

  consume(values = true): Item {
    const item = this.#items[this.#pos]!;
    this.#pos++;
    return this.#asValue(item, values);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === 'identifier' || tok === 'doesNotExist') {
        let r: LabelRequirement;
        try {
          r = this.#parseRequirement();
        } catch (e) {
          if (e instanceof SelectorParseError)
            throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        reqs.push(r);
        const next = this.consume();
        if (next.tok === 'end') return reqs;
        if (next.tok === 'comma') {
          const after = this.lookahead();
          if (after.tok !== 'identifier' && after.tok !== 'doesNotExist') {
            throw new SelectorParseError(`found '${after.lit}', expected: identifier after ','`);
          }
        } else {
          throw new SelectorParseError(`found '${next.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'end') {
        return reqs;
      } else {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  #parseRequirement(): LabelRequirement {
    const [key, inferred] = this.#parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const op = this.#parseOperator();
    const values = op === 'in' || op === 'notin' ? this.#parseValues() : this.#parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  #parseKeyAndInferOperator(): [string, SelectorOperator | undefined] {
    let op: SelectorOperator | undefined;
    let item = this.consume();
    if (item.tok === 'doesNotExist') {
      op = '!';
      item = this.consume();
    }
    if (item.tok !== 'identifier') throw new SelectorParseError(`found '${item.lit}', expected: identifier`);
    // Upstream validates the key with a nil field path, printed as "<nil>".
    const keyErr = labelKeyError(item.lit, '<nil>');
    if (keyErr !== undefined) throw new SelectorParseError(keyErr.toString());
    const next = this.lookahead().tok;
    if ((next === 'end' || next === 'comma') && op !== '!') op = 'exists';
    return [item.lit, op];
  }

  #parseOperator(): SelectorOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case 'in':
        return 'in';
      case 'equals':
        return '=';
      case 'doubleEquals':
        return '==';
      case 'greaterThan':
        return 'gt';
      case 'lessThan':
        return 'lt';
      case 'notIn':
        return 'notin';
      case 'notEquals':
        return '!=';
      default:
        throw new SelectorParseError(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  #parseValues(): Set<string> {
    const open = this.consume();
    if (open.tok !== 'openPar') throw new SelectorParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead();
    if (tok === 'identifier' || tok === 'comma') {
      const s = this.#parseIdentifiersList();
      if (this.consume().tok !== 'closePar') throw new SelectorParseError(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === 'closePar') {
      this.consume();
      return new Set(['']);
    }
    throw new SelectorParseError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  #parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume();
      if (tok === 'identifier') {
        s.add(lit);
        const next = this.lookahead();
        if (next.tok === 'comma') continue;
        if (next.tok === 'closePar') return s;
        throw new SelectorParseError(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === 'comma') {
        if (s.size === 0) s.add('');
        const next = this.lookahead().tok;
        if (next === 'closePar') {
          s.add('');
          return s;
        }
        if (next === 'comma') {
          this.consume();
          s.add('');
        }
      } else {
        throw new SelectorParseError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  #parseExactValue(): Set<string> {
    const ahead = this.lookahead().tok;
    if (ahead === 'end' || ahead === 'comma') return new Set(['']);
    const { tok, lit } = this.consume();
    if (tok === 'identifier') return new Set([lit]);
    throw new SelectorParseError(`found '${lit}', expected: identifier`);
  }
}

/** The requirements of a selector string, sorted by key (stable), as upstream labels.Parse. */
export function parseRequirements(s: string): LabelRequirement[] {
  const reqs = new Parser(s).parse();
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
