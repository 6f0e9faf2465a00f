/** A query over a key span, prepared once for a bounded and once for an open-ended span. */
import type { Database, Statement } from 'better-sqlite3';
import type { KeySpan } from '../key-range.js';

/**
 * `sql(bound)` must place `key >= ?` first among its parameters and insert `bound` right after it;
 * `bound` is `AND <column> < ?` or empty. The remaining parameters follow in `all`/`get`.
 */
export class SpanQuery<Row> {
  readonly #bounded: Statement<unknown[], Row>;
  readonly #open: Statement<unknown[], Row>;

  constructor(db: Database, column: string, sql: (bound: string) => string) {
    this.#bounded = db.prepare<unknown[], Row>(sql(`AND ${column} < ?`));
    this.#open = db.prepare<unknown[], Row>(sql(''));
  }

  all(span: KeySpan, ...rest: unknown[]): Row[] {
    return span.end === null
      ? this.#open.all(span.start, ...rest)
      : this.#bounded.all(span.start, span.end, ...rest);
  }

  get(span: KeySpan, ...rest: unknown[]): Row | undefined {
    return span.end === null
      ? this.#open.get(span.start, ...rest)
      : this.#bounded.get(span.start, span.end, ...rest);
  }
}
