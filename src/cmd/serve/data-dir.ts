/**
 * The data dir made ready before anything is written to it: created if missing (mode 0700), and
 * refused with one clear line when it cannot be used (a file in the way, a read-only or full file
 * system, no permission), instead of failing later half-way through start-up.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StartupError, fsReason } from './startup-error.js';

const hint = '(choose another with --data-dir)';

/** The nearest existing ancestor of `path` (the file system root at worst). */
async function existingAncestor(path: string): Promise<string> {
  let p = dirname(path);
  for (;;) {
    try {
      await stat(p);
      return p;
    } catch {
      const up = dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
}

export async function prepareDataDir(dir: string): Promise<void> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) throw new StartupError(`data dir ${dir} is not a directory ${hint}`);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    if ((err as { code?: unknown }).code !== 'ENOENT') {
      throw new StartupError(`data dir ${dir} cannot be used: ${fsReason(err)} ${hint}`);
    }
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (mkdirErr) {
      // A recursive mkdir may name the missing path rather than why it cannot be made: ask the
      // directory it would be made in.
      let cause: unknown = mkdirErr;
      const parent = await existingAncestor(dir);
      try {
        await access(parent, constants.W_OK | constants.X_OK);
      } catch (parentErr) {
        cause = parentErr;
      }
      throw new StartupError(`cannot create data dir ${dir}: ${fsReason(cause)} ${hint}`);
    }
  }
  try {
    await access(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    throw new StartupError(`data dir ${dir} is not writable: ${fsReason(err)} ${hint}`);
  }
}
