/**
 * `--faults FILE`: the fault rules of a YAML file (`faults: [rules]`), read at start (a bad file
 * stops the start, naming the rule and field) and again whenever the file changes (a bad change
 * is logged and the previous rules stay).
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { Stats } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { checkFaultFile, FaultRuleError } from '../../apiserver/faults/fault-rule.js';
import type { CheckedRule } from '../../apiserver/faults/fault-rule.js';
import type { FaultInjector } from '../../apiserver/faults/fault-injector.js';
import type { Logger } from '../../util/log.js';

function readRules(file: string): CheckedRule[] {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FaultRuleError(`--faults ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return checkFaultFile(doc);
  } catch (err) {
    throw new FaultRuleError(`--faults ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Loads the file's rules into `injector` and follows the file; the result stops following it. */
export function followFaultsFile(file: string, injector: FaultInjector, log: Logger): () => void {
  injector.setFileRules(readRules(file));
  const onChange = (): void => {
    try {
      const rules = readRules(file);
      injector.setFileRules(rules);
      log.info(`--faults ${file}: ${rules.length} rule(s) in effect`);
    } catch (err) {
      log.error(`${err instanceof Error ? err.message : String(err)}; the previous rules stay`);
    }
  };
  // Polling the file's stat: reliable for editors that replace the file, and cheap at 500 ms.
  const listener = (cur: Stats, prev: Stats): void => {
    if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino) onChange();
  };
  watchFile(file, { interval: 500, persistent: false }, listener);
  return () => unwatchFile(file, listener);
}
