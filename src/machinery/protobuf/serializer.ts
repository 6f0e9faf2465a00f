/**
 * Kubernetes' protobuf serialization (`application/vnd.kubernetes.protobuf`): the `k8s\x00` magic,
 * then a runtime.Unknown envelope carrying apiVersion, kind and the message bytes; watch streams
 * as 4-byte big-endian length-prefixed WatchEvent messages whose object is such an envelope.
 */
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject, JsonValue } from '../../util/json.js';
import { ProtobufCodec, ProtobufDecodeError } from './codec.js';
import type { ProtoRegistry } from './registry.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';
export const protobufWatchMediaType = 'application/vnd.kubernetes.protobuf;stream=watch';

const magic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** An object of a kind without a protobuf message (custom resources, Table). */
export class NotProtobufMarshalableError extends Error {
  override readonly name = 'NotProtobufMarshalableError';
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`object ${apiVersion}, Kind=${kind} does not implement the protobuf marshalling interface`);
  }
}

/** What a protobuf body held: its type and its JSON form (with apiVersion and kind). */
export interface DecodedProtobuf {
  readonly apiVersion: string;
  readonly kind: string;
  readonly object: JsonObject;
}

export class KubeProtobuf {
  readonly #codec: ProtobufCodec;

  readonly #scheme: string;

  /** `scheme` names the scheme in "no kind is registered" errors, as upstream's do. */
  constructor(registry: ProtoRegistry, scheme = '') {
    this.#codec = new ProtobufCodec(registry);
    this.#scheme = scheme;
  }

  get codec(): ProtobufCodec {
    return this.#codec;
  }

  /** Whether objects of this apiVersion and kind have a protobuf form. */
  supports(apiVersion: string, kind: string): boolean {
    return this.#codec.registry.messageNameFor(apiVersion, kind) !== undefined;
  }

  /** `k8s\x00` + runtime.Unknown for a JSON object with apiVersion and kind. */
  encode(object: JsonObject): Uint8Array {
    const apiVersion = typeof object['apiVersion'] === 'string' ? object['apiVersion'] : '';
    const kind = typeof object['kind'] === 'string' ? object['kind'] : '';
    const name = this.#codec.registry.messageNameFor(apiVersion, kind);
    if (name === undefined) throw new NotProtobufMarshalableError(apiVersion, kind);
    const raw = this.#codec.encode(name, object);
    const w = new BinaryWriter();
    w.raw(magic);
    w.tag(1, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(apiVersion);
    w.tag(2, WireType.LengthDelimited).string(kind);
    w.join();
    w.tag(2, WireType.LengthDelimited).bytes(raw);
    w.tag(3, WireType.LengthDelimited).string('');
    w.tag(4, WireType.LengthDelimited).string('');
    return w.finish();
  }

  /**
   * Decodes a protobuf body (upstream's protobuf.Serializer.Decode). Errors carry upstream's texts;
   * `defaults` completes an envelope without apiVersion or kind, as the endpoint's type does.
   */
  decode(
    bytes: Uint8Array,
    defaults?: { readonly apiVersion: string; readonly kind: string },
  ): DecodedProtobuf {
    if (bytes.length === 0) throw new ProtobufDecodeError('empty data');
    if (bytes.length < magic.length || !magic.every((b, i) => bytes[i] === b)) {
      throw new ProtobufDecodeError(
        'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
      );
    }
    if (bytes.length === magic.length) throw new ProtobufDecodeError('empty body');
    let apiVersion = '';
    let kind = '';
    let raw: Uint8Array = new Uint8Array(0);
    try {
      const r = new BinaryReader(bytes.subarray(magic.length));
      while (r.pos < r.len) {
        const [n, wt] = r.tag();
        if (n === 1 && wt === WireType.LengthDelimited) {
          const tm = new BinaryReader(r.bytes());
          while (tm.pos < tm.len) {
            const [m, mwt] = tm.tag();
            if (m === 1 && mwt === WireType.LengthDelimited) apiVersion = tm.string();
            else if (m === 2 && mwt === WireType.LengthDelimited) kind = tm.string();
            else tm.skip(mwt, m);
          }
        } else if (n === 2 && wt === WireType.LengthDelimited) raw = r.bytes();
        else r.skip(wt, n);
      }
    } catch (err) {
      throw new ProtobufDecodeError(err instanceof Error ? err.message : String(err));
    }
    if (apiVersion === '' && defaults !== undefined) apiVersion = defaults.apiVersion;
    if (kind === '' && defaults !== undefined) kind = defaults.kind;
    if (kind === '') {
      throw new ProtobufDecodeError(
        `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"${apiVersion}", Kind:""}'`,
      );
    }
    const bodyType = { apiVersion, kind };
    const name = this.#codec.registry.messageNameFor(apiVersion, kind);
    if (name === undefined) {
      const scheme = this.#scheme === '' ? '' : ` in scheme "${this.#scheme}"`;
      throw new ProtobufDecodeError(
        `no kind "${kind}" is registered for version "${apiVersion}"${scheme}`,
        bodyType,
      );
    }
    let value: JsonValue;
    try {
      value = this.#codec.decode(name, raw);
    } catch (err) {
      throw new ProtobufDecodeError(err instanceof Error ? err.message : String(err), bodyType);
    }
    const object: JsonObject = { kind, apiVersion };
    if (isJsonObject(value)) Object.assign(object, value, { kind, apiVersion });
    return { apiVersion, kind, object };
  }

  /** A WatchEvent message (one frame without its length prefix): its type and decoded object. */
  decodeWatchEvent(bytes: Uint8Array): { readonly type: string; readonly object: JsonObject } {
    let type = '';
    let object: JsonObject = {};
    const r = new BinaryReader(bytes);
    while (r.pos < r.len) {
      const [n, wt] = r.tag();
      if (n === 1 && wt === WireType.LengthDelimited) type = r.string();
      else if (n === 2 && wt === WireType.LengthDelimited) {
        const ext = new BinaryReader(r.bytes());
        while (ext.pos < ext.len) {
          const [m, mwt] = ext.tag();
          if (m === 1 && mwt === WireType.LengthDelimited) object = this.decode(ext.bytes()).object;
          else ext.skip(mwt, m);
        }
      } else r.skip(wt, n);
    }
    return { type, object };
  }

  /** One watch frame: length prefix + WatchEvent{type, object: RawExtension{envelope}}. */
  encodeWatchEvent(type: string, object: JsonObject): Uint8Array {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).string(type);
    w.tag(2, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).bytes(this.encode(object));
    w.join();
    const event = w.finish();
    const frame = new Uint8Array(4 + event.length);
    new DataView(frame.buffer).setUint32(0, event.length);
    frame.set(event, 4);
    return frame;
  }
}
