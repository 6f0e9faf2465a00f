/**
 * SPDY/3 header blocks: a count of name/value pairs, each a 32-bit length and bytes (several values
 * of one name separated by NUL), compressed with zlib over one stream per direction and
 * connection, primed with the dictionary of the SPDY/3 draft (section 2.6.10.1).
 *
 * Reading inflates the connection's compressed bytes so far and keeps what is new (header blocks
 * are a few per stream, and the total is bounded). Writing sends each block as one stored
 * (uncompressed) deflate block: a valid zlib stream that any reader decodes block by block, and
 * nothing a server sends here is worth compressing.
 */
import { constants, inflateSync } from 'node:zlib';

/** The draft's dictionary: length-prefixed header names and values, then common value text. */
function draftDictionary(): Buffer {
  const words = [
    'options',
    'head',
    'post',
    'put',
    'delete',
    'trace',
    'accept',
    'accept-charset',
    'accept-encoding',
    'accept-language',
    'accept-ranges',
    'age',
    'allow',
    'authorization',
    'cache-control',
    'connection',
    'content-base',
    'content-encoding',
    'content-language',
    'content-length',
    'content-location',
    'content-md5',
    'content-range',
    'content-type',
    'date',
    'etag',
    'expect',
    'expires',
    'from',
    'host',
    'if-match',
    'if-modified-since',
    'if-none-match',
    'if-range',
    'if-unmodified-since',
    'last-modified',
    'location',
    'max-forwards',
    'pragma',
    'proxy-authenticate',
    'proxy-authorization',
    'range',
    'referer',
    'retry-after',
    'server',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
    'user-agent',
    'vary',
    'via',
    'warning',
    'www-authenticate',
    'method',
    'get',
    'status',
    '200 OK',
    'version',
    'HTTP/1.1',
    'url',
    'public',
    'set-cookie',
    'keep-alive',
    'origin',
  ];
  const tail =
    '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
    '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request' +
    '401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented' +
    '503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ' +
    'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,' +
    'application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=' +
    'gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';
  const parts: Buffer[] = [];
  for (const w of words) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(w.length);
    parts.push(len, Buffer.from(w, 'latin1'));
  }
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

export const headerDictionary = draftDictionary();

/** A header block's names (lower case) and their values, in order. */
export type SpdyHeaders = ReadonlyMap<string, readonly string[]>;

/** A malformed or oversized header block: the connection is unusable. */
export class SpdyProtocolError extends Error {
  override readonly name = 'SpdyProtocolError';
}

/** Compressed header bytes one connection may send in all (a handful of streams need a few KiB). */
const maxCompressedBytes = 256 * 1024;
/** Pairs one block may hold. */
const maxPairs = 1000;

/** Decodes the header blocks one peer sends on one connection, in order. */
export class HeaderBlockReader {
  readonly #compressed: Buffer[] = [];
  #compressedBytes = 0;
  #decoded = 0;

  read(block: Buffer): SpdyHeaders {
    this.#compressedBytes += block.byteLength;
    if (this.#compressedBytes > maxCompressedBytes)
      throw new SpdyProtocolError('too many header bytes on one connection');
    this.#compressed.push(block);
    let all: Buffer;
    try {
      all = inflateSync(Buffer.concat(this.#compressed), {
        dictionary: headerDictionary,
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    } catch (err) {
      throw new SpdyProtocolError(`header block: ${err instanceof Error ? err.message : String(err)}`);
    }
    const fresh = all.subarray(this.#decoded);
    this.#decoded = all.byteLength;
    return parsePairs(fresh);
  }
}

function parsePairs(b: Buffer): SpdyHeaders {
  const out = new Map<string, string[]>();
  let at = 0;
  const u32 = (): number => {
    if (at + 4 > b.byteLength) throw new SpdyProtocolError('truncated header block');
    const v = b.readUInt32BE(at);
    at += 4;
    return v;
  };
  const bytes = (n: number): string => {
    if (at + n > b.byteLength) throw new SpdyProtocolError('truncated header block');
    const s = b.toString('utf8', at, at + n);
    at += n;
    return s;
  };
  const count = u32();
  if (count > maxPairs) throw new SpdyProtocolError(`header block of ${count} pairs`);
  for (let i = 0; i < count; i++) {
    const name = bytes(u32()).toLowerCase();
    const values = bytes(u32()).split('\0');
    out.set(name, [...(out.get(name) ?? []), ...values]);
  }
  if (at !== b.byteLength) throw new SpdyProtocolError('header block longer than its pairs');
  return out;
}

/** Encodes the header blocks one side sends on one connection, in order. */
export class HeaderBlockWriter {
  #started = false;

  write(headers: SpdyHeaders): Buffer {
    const parts: Buffer[] = [];
    const u32 = (n: number): void => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      parts.push(b);
    };
    u32(headers.size);
    for (const [name, values] of headers) {
      const n = Buffer.from(name.toLowerCase(), 'utf8');
      const v = Buffer.from(values.join('\0'), 'utf8');
      u32(n.byteLength);
      parts.push(n);
      u32(v.byteLength);
      parts.push(v);
    }
    const raw = Buffer.concat(parts);
    const out: Buffer[] = [];
    // The zlib header once per connection: deflate, 32 KiB window, no preset dictionary.
    if (!this.#started) out.push(Buffer.from([0x78, 0x01]));
    this.#started = true;
    // Stored blocks of at most 65,535 bytes, none final: the stream goes on with the next block.
    for (let at = 0; at < raw.byteLength || at === 0; at += 0xffff) {
      const chunk = raw.subarray(at, at + 0xffff);
      const head = Buffer.alloc(5);
      head.writeUInt8(0, 0);
      head.writeUInt16LE(chunk.byteLength, 1);
      head.writeUInt16LE(~chunk.byteLength & 0xffff, 3);
      out.push(head, chunk);
      if (raw.byteLength === 0) break;
    }
    // An empty stored block ends the block, as zlib's sync flush does: a reader hands out what
    // it decoded there, without reading on into the next frame's bytes.
    out.push(Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]));
    return Buffer.concat(out);
  }
}
