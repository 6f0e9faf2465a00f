import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ShellUnsupported, commandNames, parseShell } from './shell-parse.js';
import { runShell, startShell } from './shell-run.js';
import { restartCountScript } from './testing/upstream-pods.js';
import type { ShellFs } from './shell-run.js';

function memFs(files = new Map<string, string>()): ShellFs & { files: Map<string, string>; log: string[] } {
  const log: string[] = [];
  return {
    files,
    log,
    read: (p) => files.get(p),
    write: (p, content, append, at) => {
      files.set(p, append ? (files.get(p) ?? '') + content : content);
      log.push(`${at} write ${p}`);
    },
    remove: (p, at) => {
      log.push(`${at} rm ${p}`);
      return files.delete(p);
    },
  };
}

function run(script: string, fs = memFs(), env = new Map<string, string | undefined>()) {
  let out = '';
  const r = runShell(parseShell(script), {
    fs,
    env,
    onOutput: (_t, fd, s) => {
      if (fd === 1) out += s;
    },
  });
  return { ...r, out, fs };
}

describe('simulated shell', () => {
  test('sleeps advance virtual time; files are written and removed when the script says', () => {
    const r = run('echo ok >/tmp/health; sleep 10; rm -rf /tmp/health; sleep 600');
    assert.equal(r.code, 0);
    assert.equal(r.elapsedMs, 610_000);
    assert.deepEqual(r.fs.log, ['0 write /tmp/health', '0 write /tmp/health', '10000 rm /tmp/health']);
    assert.equal(r.fs.files.has('/tmp/health'), false);
  });

  test('a URL keeps its ? and * (no file of an image is named so); other globs are not modelled', () => {
    assert.equal(run('echo http://10.0.0.1:8080/echo?msg=x*').out, 'http://10.0.0.1:8080/echo?msg=x*\n');
    assert.throws(() => parseShell('ls /tmp/*.txt'), ShellUnsupported);
  });

  test('seq counts, as in for loops', () => {
    assert.equal(run('for i in $(seq 0 2); do echo -n "$i "; done; seq 5 -2 1').out, '0 1 2 5\n3\n1\n');
  });

  test('exit codes: exit N, false, true, and the last status', () => {
    assert.equal(run('exit 3').code, 3);
    assert.equal(run('/bin/false').code, 1);
    assert.equal(run('true').code, 0);
    assert.equal(run('echo -n DONE; /bin/false').code, 1);
    assert.equal(run('echo -n DONE; /bin/false').out, 'DONE');
    assert.equal(run('exit $(( 7 / 2 ))').code, 3);
  });

  test('a loop without end runs forever', () => {
    const r = run('while true; do sleep 1; done');
    assert.equal(r.code, undefined);
  });

  test("the runtime spec's restart-count script fails, then succeeds, then runs forever", () => {
    const script = restartCountScript;
    const fs = memFs();
    assert.equal(run(script, fs).code, 1);
    assert.equal(run(script, fs).code, 0);
    assert.equal(run(script, fs).code, undefined);
  });

  test("the job fixture's failOnce and notTerminateOnce scripts", () => {
    const fs = memFs();
    const failOnce = 'if [[ -r /data/foo ]] ; then exit 0 ; else touch /data/foo ; exit 1 ; fi';
    assert.equal(run(failOnce, fs).code, 1);
    assert.equal(run(failOnce, fs).code, 0);
    const notOnce =
      'if [[ -r /data/foo ]] ; then exit 0 ; elif [[ $JOB_COMPLETION_INDEX -eq 0 ]] ; then touch /data/foo ; sleep 1000000 ; else exit 1 ; fi';
    assert.equal(run(notOnce, memFs(), new Map([['JOB_COMPLETION_INDEX', '1']])).code, 1);
    const r = run(notOnce, memFs(), new Map([['JOB_COMPLETION_INDEX', '0']]));
    // 1,000,000 s is past the horizon (a week): it does not end.
    assert.equal(r.code, undefined);
    assert.equal(r.fs.files.has('/data/foo'), true);
  });

  test('quoting, variables, command substitution and sh -c', () => {
    assert.equal(run('X="a  b"; echo "$X" $X \'$X\'').out, 'a  b a b $X\n');
    assert.equal(run('echo ${MISSING:-fallback}').out, 'fallback\n');
    assert.equal(run('sh -c "echo inner; exit 4"; echo $?').out, 'inner\n4\n');
    assert.equal(run('for i in 1 2 3; do echo $i; done').out, '1\n2\n3\n');
    assert.equal(run('test -f /nope || echo missing && echo then').out, 'missing\nthen\n');
  });

  test('what is not modelled is refused, never guessed', () => {
    assert.throws(() => run('nc -l 8080'), ShellUnsupported);
    assert.throws(() => run('ls /tmp/*'), ShellUnsupported);
    assert.throws(() => run('case x in x) ;; esac'), ShellUnsupported);
    assert.throws(() => run('sleep 1 &'), ShellUnsupported);
    assert.throws(() => run('echo $SECRET', memFs(), new Map([['SECRET', undefined]])), ShellUnsupported);
  });

  test("the kubelet's $(VAR) references in env values, commands and args", async () => {
    const { expandReferences } = await import('./references.js');
    const { containerProgram } = await import('./program.js');
    const { containerEnv } = await import('./container-run.js');
    const env = new Map([
      ['FOO', 'foo-value'],
      ['BAR', 'bar-value'],
    ]);
    assert.equal(expandReferences('$(FOO);;$(BAR)', env), 'foo-value;;bar-value');
    assert.equal(expandReferences('$$(FOO) $(NOPE)', env), '$(FOO) $(NOPE)');
    const container = {
      name: 'c',
      image: 'busybox',
      command: ['sh', '-c', 'TEST_VAR=wrong echo "$(TEST_VAR)"'],
      env: [
        { name: 'TEST_VAR', value: 'test-value' },
        { name: 'COMPOSED', value: '$(TEST_VAR)-x' },
        { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      ],
    };
    const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [container] } };
    const penv = containerEnv(pod, container);
    assert.equal(penv.get('COMPOSED'), 'test-value-x');
    const program = containerProgram(container, penv);
    assert.equal(program.kind, 'script');
    if (program.kind === 'script') {
      let out = '';
      runShell(program.list, { fs: memFs(), env: penv, onOutput: (_t, _fd, s) => (out += s) });
      assert.equal(out, 'test-value\n');
    }
    assert.equal(containerProgram({ ...container, command: ['echo', '$(SECRET)'] }, penv).kind, 'unknown');
  });

  test('backquotes substitute a command, with POSIX backslash rules; commandNames sees inside them', () => {
    assert.equal(run('for i in `seq 1 3`; do echo -n $i; done').out, '123');
    // Within double quotes \" in backquotes is a quote of the inner command: it prints a.
    assert.equal(run('echo "`echo \\"a\\"`"').out, 'a\n');
    const list = parseShell(
      'x="$(dig +short a)" && for i in `seq 2`; do getent hosts b; /usr/bin/nc -z c 80; done',
    );
    assert.deepEqual([...commandNames(list)].sort(), ['dig', 'getent', 'nc', 'seq']);
    assert.throws(() => parseShell('echo `date'), ShellUnsupported);
  });

  test('a stepped run works out each stretch only when time reaches it, with the answers of then', () => {
    let answer = 'none';
    const fs = memFs();
    const stepped = startShell(
      parseShell('for i in `seq 1 3`; do echo "$i $(cat /in)" >> /out; sleep 1; done; exit 4'),
      {
        fs: { ...fs, read: (p) => (p === '/in' ? answer : fs.read(p)) },
        env: new Map(),
        maxSteps: 5,
        stepsPerWait: true,
      },
    );
    stepped.advance(0);
    assert.equal(fs.files.get('/out'), '1 none\n');
    assert.equal(stepped.elapsedMs, 1000);
    answer = 'later';
    stepped.advance(1500);
    assert.equal(fs.files.get('/out'), '1 none\n2 later\n');
    assert.equal(stepped.result, undefined);
    stepped.advance(Infinity);
    assert.deepEqual(stepped.result, { code: 4, elapsedMs: 3000 });
  });
});
