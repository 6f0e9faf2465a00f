/** Waiting for a writer's 'drain' while the answer it feeds may end first (streamed lists, gzipped bodies). */

/** What a 'drain' comes from (a response, or a compressor in front of it). */
export interface DrainSource {
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/** What ends the wait with false: the response closing. */
export interface CloseSource {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Resolves true when `source` drained, false when `res` closed or `signal` aborted first; the
 * listeners are removed either way.
 */
export function whenDrained(source: DrainSource, res: CloseSource, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean): void => {
      source.off('drain', onDrain);
      res.off('close', onClose);
      signal.removeEventListener('abort', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    source.once('drain', onDrain);
    res.once('close', onClose);
    signal.addEventListener('abort', onClose, { once: true });
  });
}
