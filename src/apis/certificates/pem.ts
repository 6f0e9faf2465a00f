/**
 * PEM decoding with the rules of Go's encoding/pem `Decode` (as kube-apiserver v1.27 uses it):
 * text before a block is skipped, a malformed block is skipped in favour of the next one, the END
 * line must repeat the type, the body is strict standard base64 (spaces, tabs and line breaks
 * aside) and `Key: value` lines right after BEGIN are headers.
 */

export interface PemBlock {
  readonly type: string;
  /** Header lines (`Proc-Type: 4,ENCRYPTED`) in order; upstream rejects blocks that have any. */
  readonly headers: readonly (readonly [string, string])[];
  readonly bytes: Buffer;
}

const pemStart = '\n-----BEGIN ';
const pemEnd = '\n-----END ';
const pemEndOfLine = '-----';

/** Go's getLine: the line without its `\r\n`/`\n` and trailing spaces or tabs, and the rest. */
function getLine(data: string): [line: string, rest: string] {
  let i = data.indexOf('\n');
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === '\r') i--;
  }
  return [data.slice(0, i).replace(/[ \t]+$/, ''), data.slice(j)];
}

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Go's base64.StdEncoding.Decode, which skips `\r` and `\n`: undefined on corrupt input. */
function decodeBase64(text: string): Buffer | undefined {
  const s = text.replace(/[\r\n]/g, '');
  if (!strictBase64.test(s)) return undefined;
  return Buffer.from(s, 'base64');
}

/**
 * The first PEM block of `data` and what follows it, or undefined when there is none. `data` is
 * handled byte for byte (latin1), as Go handles a []byte.
 */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith(pemStart.slice(1))) {
      rest = rest.slice(pemStart.length - 1);
    } else {
      const at = rest.indexOf(pemStart);
      if (at < 0) return undefined;
      rest = rest.slice(at + pemStart.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(pemEndOfLine)) continue;
    typeLine = typeLine.slice(0, typeLine.length - pemEndOfLine.length);

    const headers: [string, string][] = [];
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
      rest = next;
    }
    if (truncated) return undefined;

    let endIndex: number;
    let endTrailerIndex: number;
    if (headers.length === 0 && rest.startsWith(pemEnd.slice(1))) {
      endIndex = 0;
      endTrailerIndex = pemEnd.length - 1;
    } else {
      endIndex = rest.indexOf(pemEnd);
      endTrailerIndex = endIndex + pemEnd.length;
    }
    if (endIndex < 0) continue;

    let endTrailer = rest.slice(endTrailerIndex);
    const endTrailerLen = typeLine.length + pemEndOfLine.length;
    if (endTrailer.length < endTrailerLen) continue;
    const restOfEndLine = endTrailer.slice(endTrailerLen);
    endTrailer = endTrailer.slice(0, endTrailerLen);
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(pemEndOfLine)) continue;
    if (getLine(restOfEndLine)[0].length !== 0) continue;

    const bytes = decodeBase64(rest.slice(0, endIndex).replace(/[ \t]/g, ''));
    if (bytes === undefined) continue;
    const after = getLine(rest.slice(endIndex + pemEnd.length - 1))[1];
    return { block: { type: typeLine, headers, bytes }, rest: after };
  }
}

/** Every block of `data`, in order (Go: Decode until it returns nil). */
export function decodeAllPem(data: string): PemBlock[] {
  const out: PemBlock[] = [];
  let rest = data;
  for (;;) {
    const r = decodePem(rest);
    if (r === undefined) return out;
    out.push(r.block);
    rest = r.rest;
  }
}

/** PEM text of one block, as Go's pem.Encode writes it (64-column base64, no headers). */
export function encodePem(type: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.map((l) => `${l}\n`).join('')}-----END ${type}-----\n`;
}
