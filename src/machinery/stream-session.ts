/**
 * A command session of a connect subresource (pods/exec, pods/attach): what the client asked for
 * and the command's run over abstract streams. The registry builds it; the API server serves it
 * over the protocol the client upgrades to (apiserver/streaming/: SPDY/3.1 or WebSocket).
 */

/** A command session's streams, as the client asked for them (PodExecOptions). */
export interface StreamSession {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
  /** Runs the command; stdout and stderr are written only when asked for. */
  run(io: StreamSessionIo): Promise<StreamSessionEnd>;
}

export interface StreamSessionIo {
  /** What the client sends on stdin, until it closes it (nothing when stdin was not asked for). */
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: (chunk: Uint8Array) => Promise<void>;
  readonly stderr: (chunk: Uint8Array) => Promise<void>;
  /** The client went away. */
  readonly signal: AbortSignal;
}

/**
 * How a session ended: an exit status (with the runtime's words for a non-zero one:
 * `error executing command [sh -c exit 3], exit code 3`), or an error the kubelet reports as an
 * internal error (`error executing command in container: …`).
 */
export type StreamSessionEnd =
  { readonly exitCode: number; readonly message: string } | { readonly error: string };
