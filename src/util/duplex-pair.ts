/**
 * Two connected in-memory streams, like the two ends of a TCP connection: what one end writes,
 * the other reads; ending one end's writes ends the other's reads (a FIN); destroying one end
 * ends the other. Node 22 has `stream.duplexPair`; Node 20, which nanokube runs on, does not.
 * Used to carry TLS and HTTP between the API server and servers simulated in the same process.
 */
import { Duplex } from 'node:stream';

class End extends Duplex {
  peer: End | undefined;

  override _read(): void {
    // Data is pushed by the peer as it writes; there is nothing to pull.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const peer = this.peer;
    if (peer === undefined || peer.destroyed) {
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      return;
    }
    peer.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.peer !== undefined && !this.peer.destroyed) this.peer.push(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const peer = this.peer;
    this.peer = undefined;
    // The other end reads to its end, as after the far side closed its socket.
    if (peer !== undefined && !peer.destroyed) {
      peer.peer = undefined;
      peer.push(null);
    }
    callback(error);
  }
}

/** A connected pair: `[client, server]` (the names only say which end is which). */
export function duplexPair(): [Duplex, Duplex] {
  const a = new End();
  const b = new End();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
