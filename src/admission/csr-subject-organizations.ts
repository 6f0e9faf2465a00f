/**
 * certificates.ParseCSR and the request's Subject.Organization, as CertificateSubjectRestriction
 * reads them (v1.27): the first PEM block of `spec.request` must be a CERTIFICATE REQUEST, the
 * DER must parse as PKCS#10 (Go's x509 errors from apis/certificates/x509.ts), and every
 * organization (O, 2.5.4.10) attribute of the subject is collected in order, as pkix.Name's
 * FillFromRDNSequence does (values of non-string ASN.1 types are skipped).
 */
import { children, DerError, derTags, expect, oidOf, readTlv } from '../apis/certificates/der.js';
import type { Tlv } from '../apis/certificates/der.js';
import { decodePem } from '../apis/certificates/pem.js';
import { parseCertificateRequest, X509Error } from '../apis/certificates/x509.js';

const organizationOid = '2.5.4.10';

/** The ASN.1 string types Go's asn1 decodes into a Go string. */
function stringValue(der: Uint8Array, t: Tlv): string | undefined {
  if (t.cls !== 0) return undefined;
  const content = Buffer.from(der.subarray(t.contentStart, t.end));
  switch (t.tag) {
    case 12: // UTF8String
      return content.toString('utf8');
    case 19: // PrintableString
    case 22: // IA5String
    case 20: // T61String
    case 18: // NumericString
      return content.toString('latin1');
    case 30: {
      // BMPString: UTF-16 big endian.
      const swapped = Buffer.from(content);
      swapped.swap16();
      return swapped.toString('utf16le');
    }
    default:
      return undefined;
  }
}

export type CsrOrganizations =
  { readonly ok: true; readonly organizations: string[] } | { readonly ok: false; readonly error: string };

/** `request` is the PEM text (spec.request's bytes). */
export function csrSubjectOrganizations(request: Buffer): CsrOrganizations {
  const found = decodePem(request.toString('latin1'));
  if (found === undefined || found.block.type !== 'CERTIFICATE REQUEST') {
    return { ok: false, error: 'PEM block type must be CERTIFICATE REQUEST' };
  }
  const der = found.block.bytes;
  try {
    parseCertificateRequest(der);
    const [tbs] = children(der, readTlv(der, 0));
    const [, subject] = children(der, expect(tbs, derTags.sequence));
    const organizations: string[] = [];
    for (const rdn of children(der, expect(subject, derTags.sequence))) {
      for (const atv of children(der, expect(rdn, derTags.set))) {
        const [oid, value] = children(der, expect(atv, derTags.sequence));
        if (oid === undefined || value === undefined) continue;
        if (oidOf(der, expect(oid, derTags.oid)) !== organizationOid) continue;
        const s = stringValue(der, value);
        if (s !== undefined) organizations.push(s);
      }
    }
    return { ok: true, organizations };
  } catch (err) {
    if (err instanceof X509Error || err instanceof DerError) return { ok: false, error: err.message };
    throw err;
  }
}
