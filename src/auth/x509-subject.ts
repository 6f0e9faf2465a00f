/**
 * The subject of a DER certificate as Go's pkix.Name.FillFromRDNSequence reads it: every
 * attribute of every RDN in order, the last commonName winning and every organization kept.
 * Node's parsed `subject` object loses what Go keeps (it reports the first of several CNs and
 * drops backslashes), so client-certificate users are read from the certificate's bytes.
 * Attribute values count only when they are of a string type Go decodes (UTF8String,
 * PrintableString, IA5String, NumericString, T61String, BMPString).
 */

export interface CertificateSubject {
  /** The last commonName ('' when none). */
  readonly commonName: string;
  /** Every organization, in the certificate's order. */
  readonly organizations: readonly string[];
}

interface Element {
  readonly tag: number;
  /** Where the contents start and end in the buffer. */
  readonly start: number;
  readonly end: number;
}

class MalformedDer extends Error {}

/** The DER element at `offset` (definite lengths only, as DER requires). */
function elementAt(der: Uint8Array, offset: number, limit: number): Element {
  if (offset + 2 > limit) throw new MalformedDer('truncated');
  const tag = der[offset]!;
  const first = der[offset + 1]!;
  let start = offset + 2;
  let length = first;
  if (first & 0x80) {
    const bytes = first & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit) throw new MalformedDer('bad length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  if (start + length > limit) throw new MalformedDer('truncated');
  return { tag, start, end: start + length };
}

function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const e = elementAt(der, at, parent.end);
    out.push(e);
    at = e.end;
  }
  return out;
}

const tags = {
  sequence: 0x30,
  set: 0x31,
  oid: 0x06,
  utf8: 0x0c,
  numeric: 0x12,
  printable: 0x13,
  t61: 0x14,
  ia5: 0x16,
  bmp: 0x1e,
} as const;

/** id-at-commonName (2.5.4.3) and id-at-organizationName (2.5.4.10), DER-encoded. */
const commonNameOid = '550403';
const organizationOid = '55040a';

function stringValue(der: Uint8Array, e: Element): string | undefined {
  const bytes = Buffer.from(der.subarray(e.start, e.end));
  switch (e.tag) {
    case tags.utf8:
      return bytes.toString('utf8');
    case tags.numeric:
    case tags.printable:
    case tags.ia5:
    case tags.t61:
      return bytes.toString('latin1');
    case tags.bmp:
      return bytes.swap16().toString('utf16le');
    default:
      return undefined;
  }
}

/** The subject of a DER certificate, or undefined when the bytes are not one. */
export function certificateSubject(der: Uint8Array): CertificateSubject | undefined {
  try {
    const certificate = elementAt(der, 0, der.length);
    const [tbs] = children(der, certificate);
    if (certificate.tag !== tags.sequence || tbs?.tag !== tags.sequence) return undefined;
    const fields = children(der, tbs);
    // [0] version (optional), serialNumber, signature, issuer, validity, subject.
    const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
    if (subject?.tag !== tags.sequence) return undefined;
    let commonName = '';
    const organizations: string[] = [];
    for (const rdn of children(der, subject)) {
      if (rdn.tag !== tags.set) return undefined;
      for (const attribute of children(der, rdn)) {
        const [type, value] = children(der, attribute);
        if (type?.tag !== tags.oid || value === undefined) return undefined;
        const oid = Buffer.from(der.subarray(type.start, type.end)).toString('hex');
        const text = stringValue(der, value);
        if (text === undefined) continue;
        if (oid === commonNameOid) commonName = text;
        else if (oid === organizationOid) organizations.push(text);
      }
    }
    return { commonName, organizations };
  } catch (err) {
    if (err instanceof MalformedDer) return undefined;
    throw err;
  }
}
