/**
 * The arguments of a small nanokube subcommand (`snapshot`, `storage`): flags that take a value
 * (`--name value` or `--name=value`), positional arguments, and `-h`/`--help`. A flag not in
 * `valued` is refused as the Go flag package refuses it.
 */
import { FlagError } from './serve/flag-error.js';

export interface CommandArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly positional: readonly string[];
  readonly help: boolean;
}

export function parseCommandArgs(args: readonly string[], valued: ReadonlySet<string>): CommandArgs {
  const values = new Map<string, string>();
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!valued.has(name)) throw new FlagError(`unknown flag: --${name}`);
    const v = inline ?? args[++i];
    if (v === undefined) throw new FlagError(`flag needs an argument: --${name}`);
    values.set(name, v);
  }
  return { values, positional, help };
}
