/**
 * SPDY/3.1 frames (draft-mbelshe-httpbis-spdy-00 and the 3.1 amendments), the subset the
 * Kubernetes streaming protocols use over an upgraded HTTP/1.1 connection (k8s.io/apimachinery
 * httpstream/spdy over moby/spdystream): control frames SYN_STREAM, SYN_REPLY, RST_STREAM,
 * SETTINGS, PING, GOAWAY, HEADERS, WINDOW_UPDATE, and data frames.
 *
 * A control frame: 1 bit set, 15 bits version (3), 16 bits type, 8 bits flags, 24 bits length.
 * A data frame: 1 bit clear, 31 bits stream id, 8 bits flags, 24 bits length.
 */
import { HeaderBlockReader, HeaderBlockWriter, SpdyProtocolError } from './header-block.js';
import type { SpdyHeaders } from './header-block.js';

export const spdyVersion = 3;
/** FLAG_FIN on data frames and SYN_STREAM / SYN_REPLY / HEADERS: the sender's half is done. */
export const flagFin = 0x01;

export const controlTypes = {
  synStream: 1,
  synReply: 2,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goAway: 7,
  headers: 8,
  windowUpdate: 9,
} as const;

/** RST_STREAM status codes. */
export const rstStatus = {
  protocolError: 1,
  invalidStream: 2,
  refusedStream: 3,
  cancel: 5,
  internalError: 6,
} as const;

export type SpdyFrame =
  | { readonly type: 'data'; readonly streamId: number; readonly fin: boolean; readonly data: Buffer }
  | {
      readonly type: 'synStream';
      readonly streamId: number;
      readonly associatedTo: number;
      readonly fin: boolean;
      readonly headers: SpdyHeaders;
    }
  | {
      readonly type: 'synReply' | 'headers';
      readonly streamId: number;
      readonly fin: boolean;
      readonly headers: SpdyHeaders;
    }
  | { readonly type: 'rstStream'; readonly streamId: number; readonly status: number }
  | { readonly type: 'ping'; readonly id: number }
  | { readonly type: 'goAway'; readonly lastGoodStreamId: number; readonly status: number }
  | { readonly type: 'windowUpdate'; readonly streamId: number; readonly delta: number }
  /** SETTINGS, and control types this side has no use for: read and passed over. */
  | { readonly type: 'ignored'; readonly controlType: number };

/** The largest frame payload accepted (the protocol allows 16 MiB; a stdin chunk is far less). */
const maxPayload = 1 << 20;

/** Splits a connection's bytes into frames, decoding header blocks in order. */
export class FrameReader {
  #buffered: Buffer = Buffer.alloc(0);
  readonly #headers = new HeaderBlockReader();

  /** Appends received bytes and returns the frames now complete. Throws SpdyProtocolError. */
  push(chunk: Buffer): SpdyFrame[] {
    this.#buffered = this.#buffered.byteLength === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    const frames: SpdyFrame[] = [];
    for (;;) {
      const b = this.#buffered;
      if (b.byteLength < 8) break;
      const length = b.readUInt32BE(4) & 0xffffff;
      if (length > maxPayload) throw new SpdyProtocolError(`frame of ${length} bytes`);
      if (b.byteLength < 8 + length) break;
      frames.push(this.#parse(b.subarray(0, 8), Buffer.from(b.subarray(8, 8 + length))));
      this.#buffered = b.subarray(8 + length);
    }
    return frames;
  }

  #parse(head: Buffer, payload: Buffer): SpdyFrame {
    const first = head.readUInt32BE(0);
    const flags = head.readUInt8(4);
    const fin = (flags & flagFin) !== 0;
    if ((first & 0x80000000) === 0) return { type: 'data', streamId: first & 0x7fffffff, fin, data: payload };
    const version = (first >>> 16) & 0x7fff;
    if (version !== spdyVersion) throw new SpdyProtocolError(`SPDY version ${version}`);
    const type = first & 0xffff;
    const need = (n: number): void => {
      if (payload.byteLength < n)
        throw new SpdyProtocolError(`control frame ${type} of ${payload.byteLength} bytes`);
    };
    const id31 = (at: number): number => payload.readUInt32BE(at) & 0x7fffffff;
    switch (type) {
      case controlTypes.synStream:
        need(10);
        return {
          type: 'synStream',
          streamId: id31(0),
          associatedTo: id31(4),
          fin,
          headers: this.#headers.read(payload.subarray(10)),
        };
      case controlTypes.synReply:
      case controlTypes.headers:
        need(4);
        return {
          type: type === controlTypes.synReply ? 'synReply' : 'headers',
          streamId: id31(0),
          fin,
          headers: this.#headers.read(payload.subarray(4)),
        };
      case controlTypes.rstStream:
        need(8);
        return { type: 'rstStream', streamId: id31(0), status: payload.readUInt32BE(4) };
      case controlTypes.ping:
        need(4);
        return { type: 'ping', id: payload.readUInt32BE(0) };
      case controlTypes.goAway:
        need(8);
        return { type: 'goAway', lastGoodStreamId: id31(0), status: payload.readUInt32BE(4) };
      case controlTypes.windowUpdate:
        need(8);
        return { type: 'windowUpdate', streamId: id31(0), delta: payload.readUInt32BE(4) & 0x7fffffff };
      default:
        return { type: 'ignored', controlType: type };
    }
  }
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE((0x8000 | spdyVersion) * 0x10000 + type, 0);
  head.writeUInt32BE(flags * 0x1000000 + payload.byteLength, 4);
  return Buffer.concat([head, payload]);
}

function u32s(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** Encodes the frames one side sends, compressing header blocks in order. */
export class FrameWriter {
  readonly #headers = new HeaderBlockWriter();

  synReply(streamId: number, headers: SpdyHeaders, fin = false): Buffer {
    return controlFrame(
      controlTypes.synReply,
      fin ? flagFin : 0,
      Buffer.concat([u32s(streamId), this.#headers.write(headers)]),
    );
  }

  synStream(streamId: number, headers: SpdyHeaders, fin = false): Buffer {
    const block = this.#headers.write(headers);
    return controlFrame(
      controlTypes.synStream,
      fin ? flagFin : 0,
      Buffer.concat([u32s(streamId, 0), Buffer.from([0, 0]), block]),
    );
  }

  data(streamId: number, data: Uint8Array, fin = false): Buffer {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(streamId & 0x7fffffff, 0);
    head.writeUInt32BE((fin ? flagFin : 0) * 0x1000000 + data.byteLength, 4);
    return Buffer.concat([head, data]);
  }

  rstStream(streamId: number, status: number): Buffer {
    return controlFrame(controlTypes.rstStream, 0, u32s(streamId, status));
  }

  ping(id: number): Buffer {
    return controlFrame(controlTypes.ping, 0, u32s(id));
  }

  goAway(lastGoodStreamId: number, status = 0): Buffer {
    return controlFrame(controlTypes.goAway, 0, u32s(lastGoodStreamId, status));
  }
}
