/**
 * The faults a server injects: rules added from code (each with a handle to remove it) and the
 * `--faults` file's rules (replaced whenever the file changes), matched against each request after
 * authorization. A rule with a `count` is used up after that many hits. Watch rules also act on
 * the watches already open when they are added. Every injected fault is counted in
 * `nanokube_injected_faults_total` (by fault, verb and resource).
 */
import { CounterFamily, metricsRegistry } from '../../util/metrics.js';
import type { CheckedRule, FaultRule } from './fault-rule.js';
import { checkFaultRule } from './fault-rule.js';

const injectedTotal = new CounterFamily({
  name: 'nanokube_injected_faults_total',
  help: 'Faults injected into requests on purpose (nanokube fault injection), by fault, verb and resource.',
  labelNames: ['fault', 'verb', 'resource'],
  registry: metricsRegistry,
});

/** What a rule is matched against. */
export interface FaultTarget {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly user: string;
}

/** An open watch the injector may close or drop. */
export interface OpenWatch {
  readonly target: FaultTarget;
  close(): void;
  drop(): void;
}

/** A rule as added: how many hits it has left, and a way to take it out. */
export interface FaultHandle {
  /** Hits left (Infinity without a count); 0 once used up or removed. */
  readonly remaining: number;
  /** How many requests or watches it has hit. */
  readonly hits: number;
  remove(): void;
}

class ActiveRule implements FaultHandle {
  readonly rule: CheckedRule;
  #remaining: number;
  #hits = 0;
  readonly #onRemove: (r: ActiveRule) => void;

  constructor(rule: CheckedRule, onRemove: (r: ActiveRule) => void) {
    this.rule = rule;
    this.#remaining = rule.count ?? Infinity;
    this.#onRemove = onRemove;
  }

  get remaining(): number {
    return this.#remaining;
  }

  get hits(): number {
    return this.#hits;
  }

  /** Takes one hit; false when none is left. */
  take(): boolean {
    if (this.#remaining <= 0) return false;
    this.#remaining--;
    this.#hits++;
    if (this.#remaining === 0) this.#onRemove(this);
    return true;
  }

  remove(): void {
    this.#remaining = 0;
    this.#onRemove(this);
  }
}

function matches(rule: CheckedRule, t: FaultTarget): boolean {
  if (rule.verbs !== undefined && !rule.verbs.has(t.verb)) return false;
  if (rule.namespace !== undefined && rule.namespace !== t.namespace) return false;
  if (rule.name !== undefined && rule.name !== t.name) return false;
  if (rule.user !== undefined && rule.user !== t.user) return false;
  if (rule.resources === undefined) return true;
  return rule.resources.some(
    (r) =>
      (r.resource === '*' || r.resource === t.resource) &&
      (r.group === undefined || r.group === t.group) &&
      (r.subresource === undefined
        ? t.subresource === ''
        : r.subresource === '*' || r.subresource === t.subresource),
  );
}

/** The name a fault is counted under. */
export function faultKind(rule: CheckedRule): string {
  if (rule.watch !== undefined) return `watch_${rule.watch}`;
  if (rule.expire) return 'expire';
  if (rule.status !== undefined) return `status_${rule.status}`;
  return 'latency';
}

export class FaultInjector {
  /** Added from code and from the file, in the order they were added: the first match wins. */
  #rules: ActiveRule[] = [];
  #fileRules: ActiveRule[] = [];
  readonly #watches = new Set<OpenWatch>();
  #injected = 0;

  /** Adds a rule (checked: a FaultRuleError says what is wrong with it). */
  inject(rule: FaultRule): FaultHandle {
    const active = new ActiveRule(checkFaultRule(rule), (r) => {
      this.#rules = this.#rules.filter((x) => x !== r);
    });
    this.#rules.push(active);
    this.#applyToOpenWatches(active);
    return active;
  }

  /** Removes every rule added from code. */
  clear(): void {
    for (const r of [...this.#rules]) r.remove();
  }

  /** The `--faults` file's rules, replacing its previous ones (their counts start again). */
  setFileRules(rules: readonly CheckedRule[]): void {
    this.#fileRules = [];
    for (const rule of rules) {
      const active = new ActiveRule(rule, (r) => {
        this.#fileRules = this.#fileRules.filter((x) => x !== r);
      });
      this.#fileRules.push(active);
      this.#applyToOpenWatches(active);
    }
  }

  /** Faults injected so far by this injector. */
  get injected(): number {
    return this.#injected;
  }

  /** Whether any rule is active (the request path skips all matching when none is). */
  get active(): boolean {
    return this.#rules.length > 0 || this.#fileRules.length > 0;
  }

  /** The first rule matching a request, taking one of its hits (counted as injected). */
  take(target: FaultTarget): CheckedRule | undefined {
    for (const r of [...this.#rules, ...this.#fileRules]) {
      if (matches(r.rule, target) && r.take()) {
        this.#count(r.rule, target);
        return r.rule;
      }
    }
    return undefined;
  }

  /** Follows an open watch until the returned function is called (when it ends). */
  track(watch: OpenWatch): () => void {
    this.#watches.add(watch);
    return () => this.#watches.delete(watch);
  }

  #applyToOpenWatches(active: ActiveRule): void {
    const rule = active.rule;
    if (rule.watch === undefined) return;
    for (const w of [...this.#watches]) {
      if (!matches(rule, w.target) || !active.take()) continue;
      this.#watches.delete(w);
      this.#count(rule, w.target);
      if (rule.watch === 'close') w.close();
      else w.drop();
    }
  }

  #count(rule: CheckedRule, t: FaultTarget): void {
    this.#injected++;
    injectedTotal.cell(faultKind(rule), t.verb, t.resource).inc();
  }
}
