import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { gnosticMessage } from './gnostic/messages.js';
import type { FieldInfo } from './gnostic/messages.js';

/**
 * A decoded gnostic message: fields by JSON key in wire order; repeated fields are arrays, nested
 * messages are DecodedMessage, scalars are string / boolean / number (int64 as a decimal string).
 */
export interface DecodedMessage {
  [key: string]: DecodedValue;
}
export type DecodedValue = string | number | boolean | DecodedMessage | DecodedValue[];

function readField(r: BinaryReader, f: FieldInfo, wt: WireType): DecodedValue {
  switch (f.kind) {
    case 's':
      return r.string();
    case 'b':
      return r.bool();
    case 'd':
      return r.double();
    case 'i':
      return r.int64().toString();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    default: {
      if (wt !== WireType.LengthDelimited) throw new Error(`field ${f.key}: bad wire type ${wt}`);
      return decodeMessage(r.bytes(), f.kind);
    }
  }
}

/** Decodes bytes as the named `openapi.v2` message (default `Document`); for tests and debugging. */
export function decodeMessage(bytes: Uint8Array, type = 'Document'): DecodedMessage {
  const info = gnosticMessage(type);
  const byNo = new Map(info.fields.map((f) => [f.no, f]));
  const r = new BinaryReader(bytes);
  const out: DecodedMessage = {};
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    const f = byNo.get(no);
    if (f === undefined) {
      r.skip(wt);
      out[`#${no}`] = true;
      continue;
    }
    const v = readField(r, f, wt);
    if (f.repeated) {
      const prev = out[f.key];
      if (Array.isArray(prev)) prev.push(v);
      else out[f.key] = [v];
    } else {
      out[f.key] = v;
    }
  }
  return out;
}
