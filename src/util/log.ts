/** A minimal levelled logger in klog's spirit: `-v N` shows messages of level <= N. */
export interface Logger {
  v(level: number, message: string): void;
  info(message: string): void;
  error(message: string): void;
}

export function createLogger(options: { verbosity: number; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const stamp = (): string => new Date().toISOString();
  return {
    v(level, message) {
      if (level <= options.verbosity) write(`I ${stamp()} ${message}`);
    },
    info(message) {
      write(`I ${stamp()} ${message}`);
    },
    error(message) {
      write(`E ${stamp()} ${message}`);
    },
  };
}
