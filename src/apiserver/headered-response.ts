/**
 * The header half of the response objects the request chain writes to when no node
 * `ServerResponse` stands behind the request (an in-process call, an upgrade request's raw socket,
 * a request forwarded from the network thread): status and headers kept as node keeps them (names
 * case-insensitive, `headersSent` from `writeHead` on), the body left to each subclass.
 */
import { EventEmitter } from 'node:events';

export abstract class HeaderedResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  readonly #headers = new Map<string, string | string[]>();

  writeHead(code: number, headers?: Record<string, string | string[]>): this {
    this.statusCode = code;
    for (const [name, value] of Object.entries(headers ?? {})) this.#headers.set(name.toLowerCase(), value);
    this.headWritten();
    return this;
  }

  setHeader(name: string, value: string | string[]): this {
    this.#headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.#headers.get(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.#headers.delete(name.toLowerCase());
  }

  /** The headers set so far, names lower-cased. */
  protected headerEntries(): IterableIterator<[string, string | string[]]> {
    return this.#headers.entries();
  }

  /** What writeHead does once status and headers are set: by default, marks the head as sent. */
  protected headWritten(): void {
    this.headersSent = true;
  }
}
