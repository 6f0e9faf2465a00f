/**
 * A plain-text answer from a stage of the chain where upstream answers with http.Error rather than
 * a Status (max-in-flight's 429, impersonation's 500).
 */
export class ChainResponseError extends Error {
  override readonly name = 'ChainResponseError';
  readonly code: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: number, text: string, headers: Readonly<Record<string, string>> = {}) {
    super(text);
    this.code = code;
    this.headers = headers;
  }
}
