/**
 * The checked-in corpus: every input that ever failed (and a few nasty representative ones), as
 * JSON files of entries in `corpus/`. Entries in `corpus/known-failing.json` are inputs the suite
 * found and that are not fixed yet: they are run and reported, but do not fail the suite.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FuzzCase } from './case.js';

export interface CorpusEntry {
  readonly name: string;
  /** What the input once did wrong, or why it is kept. */
  readonly note: string;
  readonly case: FuzzCase;
}

export const corpusDir = new URL('./corpus/', import.meta.url);

function readEntries(file: string): CorpusEntry[] {
  const parsed: unknown = JSON.parse(readFileSync(join(corpusDir.pathname, file), 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${file}: not a list of entries`);
  return parsed as CorpusEntry[];
}

export function loadCorpus(): { readonly regressions: CorpusEntry[]; readonly knownFailing: CorpusEntry[] } {
  const regressions: CorpusEntry[] = [];
  let knownFailing: CorpusEntry[] = [];
  for (const file of readdirSync(corpusDir).sort()) {
    if (!file.endsWith('.json')) continue;
    if (file === 'known-failing.json') knownFailing = readEntries(file);
    else regressions.push(...readEntries(file));
  }
  return { regressions, knownFailing };
}
