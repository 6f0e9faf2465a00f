/**
 * File contents on a simulated node are strings; bytes that are not UTF-8 (a ConfigMap's
 * binaryData, a Secret holding a key) are kept in them reversibly: such content maps every byte
 * of 0x80 and above to the lone surrogate U+DC00 + byte (Python's "surrogateescape"), so a
 * program that reads bytes (hexdump) gets the original ones back.
 */
const fatal = new TextDecoder('utf-8', { fatal: true });

/** The content for `bytes`: their UTF-8 text, or the escaped bytes when they are not UTF-8. */
export function decodeBytes(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);
    return s;
  }
}

/** The bytes of a content: UTF-8, with escaped bytes restored. */
export function encodeBytes(content: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      out.push(c - 0xdc00);
      continue;
    }
    const cp = content.codePointAt(i) ?? c;
    if (cp > 0xffff) i++;
    out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
  }
  return Uint8Array.from(out);
}

/** `hexdump -C`: offset, 16 bytes in hex, the printable ones; repeated rows become `*`. */
export function hexdumpCanonical(bytes: Uint8Array): string {
  let out = '';
  let previous: string | undefined;
  let starred = false;
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.subarray(off, off + 16);
    const key = Buffer.from(row).toString('hex');
    if (row.length === 16 && key === previous) {
      if (!starred) out += '*\n';
      starred = true;
      continue;
    }
    previous = row.length === 16 ? key : undefined;
    starred = false;
    let hex = '';
    for (let i = 0; i < 16; i++) {
      const b = row[i];
      hex += b === undefined ? '   ' : `${b.toString(16).padStart(2, '0')} `;
      if (i === 7) hex += ' ';
    }
    let ascii = '';
    for (const b of row) ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    out += `${off.toString(16).padStart(8, '0')}  ${hex} |${ascii}|\n`;
  }
  if (bytes.length > 0) out += `${bytes.length.toString(16).padStart(8, '0')}\n`;
  return out;
}
