/** Reading a protobuf message field by field on @bufbuild/protobuf's wire reader. */
import { BinaryReader } from '@bufbuild/protobuf/wire';
import type { WireType } from '@bufbuild/protobuf/wire';

/** Reads a message's fields, handing each to `field` (which returns false to skip it). */
export function readFields(
  bytes: Uint8Array,
  field: (no: number, wt: WireType, r: BinaryReader) => boolean,
): void {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    if (!field(no, wt, r)) r.skip(wt, no);
  }
}
