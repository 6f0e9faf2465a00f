/**
 * A minimal DER reader: enough to walk PKCS#10 requests and X.509 certificates the way Go's
 * encoding/asn1 does for crypto/x509 (definite lengths only, single-byte and long-form tags).
 */

export class DerError extends Error {}

export interface Tlv {
  /** Class bits (0 universal, 2 context-specific...). */
  readonly cls: number;
  readonly constructed: boolean;
  readonly tag: number;
  /** Offsets into the buffer the element was read from. */
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

export const derTags = {
  boolean: 1,
  integer: 2,
  bitString: 3,
  octetString: 4,
  null: 5,
  oid: 6,
  sequence: 16,
  set: 17,
} as const;

/** Reads the element starting at `pos` (which must end by `limit`). */
export function readTlv(buf: Uint8Array, pos: number, limit = buf.length): Tlv {
  const start = pos;
  if (pos >= limit) throw new DerError('asn1: syntax error: sequence truncated');
  const first = buf[pos++]!;
  const cls = first >> 6;
  const constructed = (first & 0x20) !== 0;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    for (;;) {
      if (pos >= limit) throw new DerError('asn1: syntax error: data truncated');
      const b = buf[pos++]!;
      tag = tag * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
  }
  if (pos >= limit) throw new DerError('asn1: syntax error: data truncated');
  let len = buf[pos++]!;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0) throw new DerError('asn1: syntax error: indefinite length found (not DER)');
    if (n > 4) throw new DerError('asn1: structure error: length too large');
    len = 0;
    for (let i = 0; i < n; i++) {
      if (pos >= limit) throw new DerError('asn1: syntax error: data truncated');
      len = len * 256 + buf[pos++]!;
    }
    if (len < 128) throw new DerError('asn1: structure error: non-minimal length');
  }
  const contentStart = pos;
  const end = contentStart + len;
  if (end > limit) throw new DerError('asn1: syntax error: data truncated');
  return { cls, constructed, tag, start, contentStart, end };
}

/** The elements inside a constructed element. */
export function children(buf: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  let pos = parent.contentStart;
  while (pos < parent.end) {
    const t = readTlv(buf, pos, parent.end);
    out.push(t);
    pos = t.end;
  }
  return out;
}

export function isUniversal(t: Tlv | undefined, tag: number): t is Tlv {
  return t !== undefined && t.cls === 0 && t.tag === tag;
}

export function isContext(t: Tlv | undefined, tag: number): t is Tlv {
  return t !== undefined && t.cls === 2 && t.tag === tag;
}

/** A universal element of the given tag, or the error Go's asn1 reports for a mismatch. */
export function expect(t: Tlv | undefined, tag: number): Tlv {
  if (t === undefined) throw new DerError('asn1: syntax error: sequence truncated');
  if (t.cls !== 0 || t.tag !== tag) throw new DerError("asn1: structure error: tags don't match");
  return t;
}

/** Dotted text of an OBJECT IDENTIFIER element. */
export function oidOf(buf: Uint8Array, t: Tlv): string {
  const parts: number[] = [];
  let v = 0;
  for (let i = t.contentStart; i < t.end; i++) {
    const b = buf[i]!;
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      if (parts.length === 0) {
        const first = v < 80 ? Math.floor(v / 40) : 2;
        parts.push(first, v - first * 40);
      } else parts.push(v);
      v = 0;
    }
  }
  if (t.end === t.contentStart) throw new DerError('asn1: syntax error: zero length OBJECT IDENTIFIER');
  return parts.join('.');
}

export function bytesOf(buf: Uint8Array, t: Tlv): Uint8Array {
  return buf.subarray(t.start, t.end);
}

export function contentOf(buf: Uint8Array, t: Tlv): Uint8Array {
  return buf.subarray(t.contentStart, t.end);
}
