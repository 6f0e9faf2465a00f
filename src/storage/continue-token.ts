/** Continue tokens of chunked lists, in kube-apiserver's encoding (base64 JSON {v, rv, start}). */
import { StorageError } from './errors.js';

export interface ContinueToken {
  /**
   * Revision of the first page; later pages read at it. Negative (upstream writes -1) continues
   * at the latest revision: the token a 410 for a compacted revision offers.
   */
  readonly revision: number;
  /** Key (relative to the list prefix) to start the next page at, inclusive. */
  readonly start: string;
}

export function encodeContinue(token: ContinueToken): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.revision, start: token.start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

function invalid(detail: string): StorageError {
  return new StorageError('InvalidContinue', '', `continue key is not valid: ${detail}`);
}

export function decodeContinue(text: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('continue key is not valid');
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== 'meta.k8s.io/v1') throw invalid('server does not recognize this encoded key');
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv) || p.rv === 0) {
    throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof p.start !== 'string' || p.start.length === 0) throw invalid('encoded key is empty');
  if (p.start.includes('..') || p.start.startsWith('/')) throw invalid('path traversal attempt detected');
  return { revision: p.rv, start: p.start };
}
