/**
 * The remote command protocols of Kubernetes v1.27 (k8s.io/apimachinery util/remotecommand, the
 * kubelet's cri/streaming/remotecommand): the versions a client may ask for and what each writes
 * on the error stream when the command ends.
 *
 * v1 `channel.k8s.io`: plain-text errors; v2 `v2.channel.k8s.io`: the same, streams handled
 * normally; v3 adds the resize stream (tty); v4 writes a metav1.Status as JSON on the error
 * stream, success included. Resize messages (tty) are read and dropped: a simulated terminal
 * has no size.
 */
import { goJsonString } from '../../machinery/fieldpath/value.js';
import type { StreamSessionEnd } from '../../machinery/stream-session.js';

/** The SPDY protocols the kubelet serves, in its order (SupportedStreamingProtocols). */
export const spdyStreamProtocols = [
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
] as const;

/** The WebSocket subprotocols of exec and attach ('' when the client offers none). */
export const websocketChannelProtocols = [
  '',
  'channel.k8s.io',
  'base64.channel.k8s.io',
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
] as const;

/** The WebSocket subprotocols of a streamed body (pods/log): raw bytes or base64 text. */
export const websocketReaderProtocols = ['', 'binary.k8s.io', 'base64.binary.k8s.io'] as const;

/** The protocol's version number (1 for the unversioned `channel.k8s.io`). */
export function protocolVersion(protocol: string): 1 | 2 | 3 | 4 {
  if (protocol.startsWith('v4.')) return 4;
  if (protocol.startsWith('v3.')) return 3;
  if (protocol.startsWith('v2.')) return 2;
  return 1;
}

/**
 * The first protocol the client lists that the server serves (the client's preference wins, as
 * in httpstream.Handshake); undefined when none is shared.
 */
export function negotiate(client: readonly string[], server: readonly string[]): string | undefined {
  return client.find((p) => server.includes(p));
}

/** Header values split on commas and trimmed, over every line of the header. */
export function headerList(value: string | string[] | undefined): string[] {
  const lines = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return lines
    .flatMap((l) => l.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * What the error stream carries when the command ends: v4 a metav1.Status in Go's JSON field
 * order (success included); v1–v3 the failure's message alone, and nothing on success.
 */
export function endStatus(end: StreamSessionEnd, version: 1 | 2 | 3 | 4): string | undefined {
  if ('error' in end) {
    const message = `Internal error occurred: ${end.error}`;
    if (version < 4) return message;
    return (
      `{"metadata":{},"status":"Failure","message":${goJsonString(message)},"reason":"InternalError",` +
      `"details":{"causes":[{"message":${goJsonString(end.error)}}]},"code":500}`
    );
  }
  if (end.exitCode === 0) return version < 4 ? undefined : '{"metadata":{},"status":"Success"}';
  const message = `command terminated with non-zero exit code: ${end.message}`;
  if (version < 4) return message;
  return (
    `{"metadata":{},"status":"Failure","message":${goJsonString(message)},"reason":"NonZeroExitCode",` +
    `"details":{"causes":[{"reason":"ExitCode","message":"${end.exitCode}"}]}}`
  );
}
