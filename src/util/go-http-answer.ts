/**
 * The plain-text answer Go's net/http server writes itself when it refuses a request before any
 * handler runs (server.go: `"HTTP/1.1 " + publicErr + errorHeaders + publicErr`), e.g.
 * `goHttpErrorAnswer('400 Bad Request')`.
 */
export function goHttpErrorAnswer(status: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`;
}
