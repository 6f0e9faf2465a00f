/**
 * Group commit: writes queued during one event-loop turn run together, in queue order, inside one
 * transaction; each caller's promise settles only after that transaction has committed (and, when
 * `committed` returns a promise, after that promise: the batch is durable).
 */

export interface GroupCommitHooks {
  /** Runs `body` inside one transaction; throwing rolls the whole transaction back. */
  transaction(body: () => void): void;
  /**
   * Called after a successful commit, before any caller's promise settles. A returned promise
   * delays the settling until it resolves (batches settle in commit order when these promises
   * resolve in order); if it rejects, the batch's callers get its error.
   */
  committed(): void | Promise<void>;
  /** Called after a transaction failed and was rolled back. */
  rolledBack(): void;
  /** Errors an operation throws before writing anything: they fail only that operation. */
  isOperationError(error: unknown): boolean;
}

interface Queued {
  /** Runs the operation inside the transaction and remembers its outcome. */
  execute(): void;
  /** Settles the caller's promise with the remembered outcome (after commit). */
  settle(): void;
  fail(error: unknown): void;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

export class GroupCommit {
  readonly #hooks: GroupCommitHooks;
  #queue: Queued[] = [];
  #scheduled: NodeJS.Immediate | null = null;

  constructor(hooks: GroupCommitHooks) {
    this.#hooks = hooks;
  }

  enqueue<T>(operation: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let outcome: Outcome<T> = { ok: false, error: new Error('operation did not run') };
      this.#queue.push({
        execute: () => {
          try {
            outcome = { ok: true, value: operation() };
          } catch (error) {
            if (!this.#hooks.isOperationError(error)) throw error;
            outcome = { ok: false, error };
          }
        },
        settle: () => {
          if (outcome.ok) resolve(outcome.value);
          else reject(outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)));
        },
        fail: (error) => reject(error instanceof Error ? error : new Error(String(error))),
      });
      this.#scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Commits everything queued now (also used by close). */
  flush(): void {
    if (this.#scheduled !== null) {
      clearImmediate(this.#scheduled);
      this.#scheduled = null;
    }
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    try {
      this.#hooks.transaction(() => {
        for (const op of batch) op.execute();
      });
    } catch (error) {
      this.#hooks.rolledBack();
      for (const op of batch) op.fail(error);
      return;
    }
    const durable = this.#hooks.committed();
    if (durable === undefined) {
      for (const op of batch) op.settle();
      return;
    }
    durable.then(
      () => {
        for (const op of batch) op.settle();
      },
      (error: unknown) => {
        for (const op of batch) op.fail(error);
      },
    );
  }
}
