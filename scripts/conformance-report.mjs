#!/usr/bin/env node
/**
 * The helper of scripts/conformance.sh: lists the [Conformance] specs of an e2e.test dry run,
 * turns a spec name into ginkgo's focus regexp, picks the specs to try again, and writes the
 * Markdown report (docs/conformance.md) from the per-spec logs.
 *
 *   conformance-report.mjs list LIST_JSON [FILTER]     spec names, one a line, sorted
 *   conformance-report.mjs regexp NAME                 the RE2 focus matching exactly NAME
 *   conformance-report.mjs retry WORK LIMIT_S          indices that failed in under LIMIT_S
 *   conformance-report.mjs report WORK OUT [REF_TSV]   writes OUT
 *
 * A spec that passed only because it judged a container's output that the simulated node made
 * up — generated lines for a program it does not follow, which a loose pattern can match — is
 * reported as "pass (not earned)" and is not counted: its log shows e2e's "Trying to get logs from
 * node N pod P container C" line, and nanokube's log (at -v 2) says it generated P's lines.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const SUITE = 'Kubernetes e2e suite';

function listSpecs(file, filter) {
  const names = new Set();
  for (const suite of JSON.parse(readFileSync(file, 'utf8'))) {
    for (const r of suite.SpecReports ?? []) {
      if (r.LeafNodeType !== 'It' || r.State !== 'passed') continue;
      const name = [...(r.ContainerHierarchyTexts ?? []), r.LeafNodeText].join(' ');
      if (name.includes('[Conformance]')) names.add(name);
    }
  }
  const re = filter ? new RegExp(filter) : undefined;
  return [...names].filter((n) => re === undefined || re.test(n)).sort();
}

function goRegexp(name) {
  const esc = (s) => s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);
  return `^${esc(SUITE)} ${esc(name)}$`;
}

/** The records of done.txt: index, attempt, exit code, wall seconds (the last record wins). */
function attempts(work) {
  const out = new Map();
  const path = `${work}/done.txt`;
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [i, a, rc, wall] = line.trim().split(/\s+/);
    if (i === undefined || a === undefined || rc === undefined || wall === undefined) continue;
    out.set(`${i}.${a}`, { index: Number(i), attempt: Number(a), rc: Number(rc), wall: Number(wall) });
  }
  return out;
}

/** The first line of a failure message, with where it failed. */
function failureReason(log, rc, timeoutS) {
  const lines = log.split('\n');
  const timedOut = lines.some((l) => /^\s*\[TIMEDOUT\]/.test(l)) || rc === 124 || rc === 137;
  const steps = lines.filter((l) => /^\s*STEP: /.test(l));
  const lastStep = steps
    .at(-1)
    ?.replace(/^\s*STEP:\s*/, '')
    .replace(/ @ \d\d\/\d\d\/\d\d .*$/, '');
  // Ginkgo's progress report says where the spec was when time ran out; the steps printed after
  // it are the clean-up's.
  const at = log.match(/At \[By Step\] (.*?) \(Step Runtime/)?.[1];
  if (timedOut) return `timed out (${timeoutS} s) at step: ${at ?? lastStep ?? '(none)'}`;
  const i = lines.findIndex((l) => /^\s*\[FAILED\] /.test(l) && !/^\s*\[FAILED\] in \[/.test(l));
  if (i >= 0) {
    let msg = lines[i].replace(/^\s*\[FAILED\]\s*/, '').trim();
    // A short first line ("Timed out after 30s.", "Expected") reads better with what follows.
    for (let j = i + 1; j < lines.length && msg.length < 120; j++) {
      const next = lines[j].trim();
      if (next === '' || next.startsWith('In [') || next.startsWith('[FAILED]')) break;
      msg += ` ${next}`;
    }
    const where = lines.slice(i).find((l) => /^\s*In \[\w+\] at: /.test(l));
    // The location inside the Kubernetes tree, without the builder's checkout path.
    const at = where?.match(/at: (\S+)/)?.[1]?.replace(/^.*?\/(test\/e2e\/)/, '$1');
    return `${msg.slice(0, 300)}${at !== undefined ? ` (${at})` : ''}`;
  }
  if (/no such host|connection refused/.test(log)) return 'could not reach the cluster';
  const tail = lines
    .filter((l) => l.trim() !== '')
    .slice(-3)
    .join(' ')
    .slice(0, 200);
  return `exit code ${rc}: ${tail}`;
}

/** The pods/containers whose logs nanokube generated (its -v 2 log says so). */
let generated;
function generatedLogs(work) {
  if (generated !== undefined) return generated;
  generated = new Set();
  let log = '';
  try {
    log = readFileSync(`${work}/nanokube.log`, 'utf8');
  } catch {
    return generated;
  }
  for (const m of log.matchAll(/pods\/log \S+?\/(\S+) container (\S+): generated lines/g))
    generated.add(`${m[1]}/${m[2]}`);
  return generated;
}

/** Whether a passing spec judged output nanokube made up. */
function unearned(work, log) {
  const reads = [...log.matchAll(/Trying to get logs from node \S+ pod (\S+) container (\S+):/g)];
  return reads.some((m) => generatedLogs(work).has(`${m[1]}/${m[2]}`));
}

/** One attempt's result from its log (ginkgo's "Ran 1 of N Specs" and summary lines). */
function result(work, rec, timeoutS) {
  let log = '';
  try {
    log = readFileSync(`${work}/r/${rec.index}.${rec.attempt}.log`, 'utf8');
  } catch {
    log = '';
  }
  const ran = [...log.matchAll(/^Ran (\d+) of \d+ Specs in ([0-9.]+) seconds/gm)].at(-1);
  const summary = [...log.matchAll(/^(SUCCESS|FAIL)! -- (\d+) Passed \| (\d+) Failed/gm)].at(-1);
  const seconds = ran !== undefined ? Number(ran[2]) : rec.wall;
  if (summary !== undefined && summary[1] === 'SUCCESS' && summary[2] === '1' && rec.rc === 0) {
    return { state: unearned(work, log) ? 'unearned' : 'pass', seconds, reason: '' };
  }
  if (ran !== undefined && ran[1] === '0' && rec.rc === 0)
    return { state: 'skip', seconds, reason: 'skipped' };
  return { state: 'fail', seconds, reason: failureReason(log, rec.rc, timeoutS) };
}

function results(work, timeoutS) {
  const names = readFileSync(`${work}/specs.txt`, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const recs = attempts(work);
  return names.map((name, k) => {
    const index = k + 1;
    const tries = [1, 2].map((a) => recs.get(`${index}.${a}`)).filter((r) => r !== undefined);
    let best;
    const limit = name.includes('[Slow]') ? Number(process.env.SLOW_TIMEOUT_S ?? 720) : timeoutS;
    for (const rec of tries) {
      const r = result(work, rec, limit);
      // Any passing attempt counts; otherwise the latest attempt's answer.
      if (best === undefined || best.state !== 'pass') best = { ...r, attempt: rec.attempt };
    }
    return { index, name, ...(best ?? { state: 'fail', seconds: 0, reason: 'not run', attempt: 0 }) };
  });
}

function readReference(path) {
  const ref = new Map();
  if (path === undefined || path === '' || !existsSync(path)) return undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [name, state] = line.split('\t');
    if (name && state) ref.set(name, state);
  }
  return ref;
}

function sig(name) {
  return name.match(/^\[(sig-[a-z-]+)\]/)?.[1] ?? 'other';
}

function md(s) {
  return s.replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

function report(work, out, refPath) {
  const timeoutS = Number(process.env.SPEC_TIMEOUT_S ?? 300);
  const rs = results(work, timeoutS);
  const count = (st) => rs.filter((r) => r.state === st).length;
  const ref = readReference(refPath);
  const lines = [];
  lines.push('# Upstream conformance specs against nanokube', '');
  lines.push(
    'Generated by `scripts/conformance.sh` (e2e.test of Kubernetes v1.28.7 against `nanokube serve` ' +
      `with ${process.env.NODES ?? 2} simulated nodes, every spec in its own process). Do not edit by hand.`,
    '',
  );
  lines.push(
    'To run it yourself: build `e2e.test` from a Kubernetes v1.28.7 checkout (`go test -c -o e2e.test ./test/e2e`), ' +
      'then `E2E_TEST=path/to/e2e.test scripts/conformance.sh` (an optional regexp picks specs; ' +
      'the script says what else it reads). It takes about an hour on two cores.',
    '',
    'A spec passes only when e2e.test says so. A spec that judged what a container printed passes "not earned" ' +
      'when that output was made up (a program the simulated node does not follow logs generated lines): ' +
      'it is listed but not counted.',
    '',
    `Run ${new Date().toISOString().slice(0, 10)}:`,
    '',
  );
  lines.push(`- **${rs.length}** \`[Conformance]\` specs`);
  lines.push(`- **${count('pass')} pass**`);
  lines.push(
    `- ${count('unearned')} pass but are not counted: they judge a container's output, and a simulated node's log lines are made up (marked "not earned")`,
  );
  lines.push(`- ${count('fail')} fail (the reason of each is in its row)`);
  if (count('skip') > 0) lines.push(`- ${count('skip')} skipped by e2e.test itself`);
  const summary = [
    `${count('pass')} passed, ${count('fail') + count('unearned')} not passed of ${rs.length}`,
  ];
  if (ref !== undefined) {
    const refPass = rs.filter((r) => ref.get(r.name) === 'pass');
    const both = refPass.filter((r) => r.state === 'pass');
    const onlyOurs = rs.filter((r) => r.state === 'pass' && ref.get(r.name) !== 'pass');
    const missing = refPass.filter((r) => r.state !== 'pass');
    lines.push(
      `- Reference (upstream kube-apiserver + etcd + kube-controller-manager, no kubelets): ${refPass.length} pass; ` +
        `nanokube passes ${both.length} of those and ${onlyOurs.length} that the reference does not`,
    );
    if (missing.length > 0) {
      lines.push('', '## Passed by the reference, not by nanokube', '');
      for (const r of missing) lines.push(`- ${md(r.name)}: ${md(r.reason || r.state)}`);
    }
    summary.push(`reference ${refPass.length}, both ${both.length}, nanokube only ${onlyOurs.length}`);
  }
  lines.push('', '## Every spec', '');
  const bySig = new Map();
  for (const r of rs) bySig.set(sig(r.name), [...(bySig.get(sig(r.name)) ?? []), r]);
  for (const [s, list] of [...bySig.entries()].sort()) {
    const passed = list.filter((r) => r.state === 'pass').length;
    lines.push(`### ${s} (${passed} of ${list.length})`, '');
    lines.push(ref !== undefined ? '| result | reference | spec | why not |' : '| result | spec | why not |');
    lines.push(ref !== undefined ? '|---|---|---|---|' : '|---|---|---|');
    for (const r of list) {
      const shown = r.state === 'unearned' ? 'pass (not earned)' : r.state;
      const why =
        r.state === 'unearned' ? 'judged on container output, which simulated nodes make up' : r.reason;
      const cells = [shown, ...(ref !== undefined ? [ref.get(r.name) ?? '-'] : []), md(r.name), md(why)];
      lines.push(`| ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  writeFileSync(out, `${lines.join('\n').trimEnd()}\n`);
  console.log(summary.join('; '));
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'list') {
  const names = listSpecs(args[0], args[1]);
  if (names.length === 0) {
    console.error(`no [Conformance] spec found in ${args[0]}${args[1] ? ` matching ${args[1]}` : ''}`);
    process.exit(1);
  }
  for (const n of names) console.log(n);
} else if (cmd === 'regexp') {
  console.log(goRegexp(args[0]));
} else if (cmd === 'retry') {
  const [work, limit] = args;
  const recs = attempts(work);
  for (const r of results(work, Number(limit))) {
    const rec = recs.get(`${r.index}.1`);
    if (r.state === 'fail' && rec !== undefined && rec.wall < Number(limit)) console.log(r.index);
  }
} else if (cmd === 'report') {
  report(args[0], args[1], args[2]);
} else {
  console.error('usage: conformance-report.mjs list|regexp|retry|report ...');
  process.exit(2);
}
