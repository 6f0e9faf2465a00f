// Runs the fuzz suite on demand, longer than CI does: `npm run fuzz -- [cases] [seed]` or
// NANOKUBE_FUZZ_CASES / NANOKUBE_FUZZ_SEED (default 100000 cases, a random seed; both printed).
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const [casesArg, seedArg] = process.argv.slice(2);
const env = {
  ...process.env,
  NANOKUBE_FUZZ_CASES: casesArg ?? process.env.NANOKUBE_FUZZ_CASES ?? '100000',
  NANOKUBE_FUZZ_SEED: seedArg ?? process.env.NANOKUBE_FUZZ_SEED ?? String(randomInt(0, 2 ** 32)),
};
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/integration/fuzz.test.ts'],
  { stdio: 'inherit', env },
);
process.exit(r.status ?? 1);
