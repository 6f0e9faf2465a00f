import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../util/json.js';
import { goFileMode } from './mounttest.js';
import { PodSim } from './pod-sim.js';
import { formatMap } from './field-path.js';

const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';

function pod(spec: JsonObject, meta: JsonObject = {}): JsonObject {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u-1', ...meta },
    spec: { restartPolicy: 'Never', ...spec },
    status: {},
  };
}

type Sources = Map<string, Record<string, string> | null>;

function sim(p: JsonObject, sources: Sources = new Map(), tokens = new Map<string, string>()): PodSim {
  return new PodSim({
    pod: p,
    nodeFiles: new Map(),
    startAt: 0,
    defaultRunMs: 5000,
    envContext: {
      sources,
      tokens,
      allocatable: new Map([
        ['cpu', 2000],
        ['memory', 8 * 2 ** 30],
      ]),
    },
  });
}

/** The log of container `c` at `ms`, and the pod's phase then. */
function run(s: PodSim, ms: number, c = 'c'): { log: string; phase: string } {
  for (let t = 0; t <= ms; t += 1000) s.advance(t);
  const out = s.output(c, false, ms);
  return { log: out?.chunks.map((x) => x.text).join('') ?? '<generated>', phase: s.phase() };
}

function mounttest(args: string[], mounts: JsonObject[], extra: JsonObject = {}): JsonObject {
  return { name: 'c', image: agnhost, args: ['mounttest', ...args], volumeMounts: mounts, ...extra };
}

const cm = (data: Record<string, string>): Sources =>
  new Map([
    ['configmap/cm', data],
    ['binary/cm', {}],
  ]);

describe('agnhost mounttest on a simulated node', () => {
  test("Go's FileMode strings", () => {
    assert.equal(goFileMode(false, 0o644), '-rw-r--r--');
    assert.equal(goFileMode(true, 0o777 | 0o1000), 'dtrwxrwxrwx');
    assert.equal(goFileMode(true, 0o777 | 0o3000), 'dgtrwxrwxrwx');
    assert.equal(goFileMode(false, 0o400), '-r--------');
  });

  test('emptyDir specs: new files with their perms, tmpfs, the volume mode, fsGroup ownership', () => {
    const volume = (medium?: string): JsonObject => ({
      name: 'v',
      emptyDir: medium === undefined ? {} : { medium },
    });
    const mount = [{ name: 'v', mountPath: '/test-volume' }];
    const tmpfs0666 = run(
      sim(
        pod({
          volumes: [volume('Memory')],
          containers: [
            mounttest(
              [
                '--fs_type=/test-volume',
                '--new_file_0666=/test-volume/test-file',
                '--file_perm=/test-volume/test-file',
              ],
              mount,
            ),
          ],
        }),
      ),
      2000,
    );
    assert.equal(tmpfs0666.phase, 'Succeeded');
    assert.equal(
      tmpfs0666.log,
      'mount type of "/test-volume": tmpfs\n' +
        'content of file "/test-volume/test-file": mount-tester new file\n\n' +
        'perms of file "/test-volume/test-file": -rw-rw-rw-\n',
    );
    const mode = run(
      sim(
        pod({
          volumes: [volume()],
          containers: [
            mounttest(
              ['--fs_type=/test-volume', '--file_perm=/test-volume', '--file_mode=/test-volume'],
              mount,
            ),
          ],
        }),
      ),
      1000,
    );
    assert.match(mode.log, /perms of file "\/test-volume": -rwxrwxrwx\n/);
    assert.match(mode.log, /mode of file "\/test-volume": drwxrwxrwx\n/);
    assert.doesNotMatch(mode.log, /tmpfs/);
    // fsGroup: the volume is setgid, new files take its group; a non-root user writes too.
    const fsGroup = run(
      sim(
        pod({
          securityContext: { fsGroup: 123, runAsUser: 1001 },
          volumes: [volume('Memory')],
          containers: [
            mounttest(
              [
                '--new_file_0660=/test-volume/test-file',
                '--file_perm=/test-volume/test-file',
                '--file_owner=/test-volume/test-file',
                '--file_mode=/test-volume',
              ],
              mount,
            ),
          ],
        }),
      ),
      1000,
    );
    assert.match(fsGroup.log, /perms of file "\/test-volume\/test-file": -rw-rw----\n/);
    assert.match(
      fsGroup.log,
      /owner UID of "\/test-volume\/test-file": 1001\nowner GID of "\/test-volume\/test-file": 123\n/,
    );
    assert.match(fsGroup.log, /mode of file "\/test-volume": dgtrwxrwxrwx\n/);
  });

  test('ConfigMap and Secret volumes: items, modes, defaultMode, fsGroup; writes are refused', () => {
    const spec = (volume: JsonObject, args: string[], sc: JsonObject = {}): JsonObject =>
      pod({
        securityContext: sc,
        volumes: [{ name: 'v', ...volume }],
        containers: [mounttest(args, [{ name: 'v', mountPath: '/etc/cm', readOnly: true }])],
      });
    const plain = run(
      sim(
        spec({ configMap: { name: 'cm', defaultMode: 0o644 } }, [
          '--file_content=/etc/cm/data-1',
          '--file_mode=/etc/cm/data-1',
        ]),
        cm({ 'data-1': 'value-1' }),
      ),
      1000,
    );
    assert.equal(
      plain.log,
      'mode of file "/etc/cm/data-1": -rw-r--r--\ncontent of file "/etc/cm/data-1": value-1\n',
    );
    assert.equal(plain.phase, 'Succeeded');
    const mapped = run(
      sim(
        spec({ configMap: { name: 'cm', items: [{ key: 'data-2', path: 'path/to/data-2', mode: 0o400 }] } }, [
          '--file_content=/etc/cm/path/to/data-2',
          '--file_mode=/etc/cm/path/to/data-2',
        ]),
        cm({ 'data-1': 'value-1', 'data-2': 'value-2' }),
      ),
      1000,
    );
    assert.equal(
      mapped.log,
      'mode of file "/etc/cm/path/to/data-2": -r--------\ncontent of file "/etc/cm/path/to/data-2": value-2\n',
    );
    // A secret as non-root with defaultMode 0440 and fsGroup: the group reads it.
    const secret = run(
      sim(
        spec(
          { secret: { secretName: 's', defaultMode: 0o440 } },
          ['--file_content=/etc/cm/data-1', '--file_mode=/etc/cm/data-1'],
          {
            runAsUser: 1000,
            fsGroup: 1001,
          },
        ),
        new Map([['secret/s', { 'data-1': 'value-1' }]]),
      ),
      1000,
    );
    assert.equal(
      secret.log,
      'mode of file "/etc/cm/data-1": -r--r-----\ncontent of file "/etc/cm/data-1": value-1\n',
    );
    // Without the group, a 0400 root file is not readable by another user: mounttest fails.
    const denied = run(
      sim(
        spec({ secret: { secretName: 's', defaultMode: 0o400 } }, ['--file_content=/etc/cm/data-1'], {
          runAsUser: 1000,
        }),
        new Map([['secret/s', { 'data-1': 'v' }]]),
      ),
      1000,
    );
    assert.equal(
      denied.log,
      'error reading file content for "/etc/cm/data-1": open /etc/cm/data-1: permission denied\n',
    );
    assert.equal(denied.phase, 'Failed');
    const write = run(
      sim(spec({ configMap: { name: 'cm' } }, ['--new_file_0644=/etc/cm/new']), cm({})),
      1000,
    );
    assert.equal(
      write.log,
      'error writing new file "/etc/cm/new": open /etc/cm/new: read-only file system\n',
    );
  });

  test('downward API and projected volumes: metadata, resources, a bound token', () => {
    const downward = {
      name: 'podinfo',
      downwardAPI: {
        items: [
          { path: 'podname', fieldRef: { fieldPath: 'metadata.name' } },
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'cpu_limit', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu' } },
          { path: 'memory_request', resourceFieldRef: { containerName: 'c', resource: 'requests.memory' } },
        ],
      },
    };
    const p = (file: string): JsonObject =>
      pod(
        {
          volumes: [downward],
          containers: [
            mounttest(
              [`--file_content=/etc/podinfo/${file}`],
              [{ name: 'podinfo', mountPath: '/etc/podinfo' }],
              {
                resources: {
                  requests: { cpu: '250m', memory: '32Mi' },
                  limits: { cpu: '1250m', memory: '64Mi' },
                },
              },
            ),
          ],
        },
        { labels: { key1: 'value1', key2: 'value2' } },
      );
    assert.equal(run(sim(p('podname')), 1000).log, 'content of file "/etc/podinfo/podname": p\n');
    assert.equal(run(sim(p('cpu_limit')), 1000).log, 'content of file "/etc/podinfo/cpu_limit": 2\n');
    assert.equal(
      run(sim(p('memory_request')), 1000).log,
      'content of file "/etc/podinfo/memory_request": 33554432\n',
    );
    assert.equal(
      run(sim(p('labels')), 1000).log,
      'content of file "/etc/podinfo/labels": key1="value1"\nkey2="value2"\n',
    );
    assert.equal(formatMap({ b: 'x"y', a: '\n' }), 'a="\\n"\nb="x\\"y"');
    const token = run(
      sim(
        pod({
          volumes: [
            {
              name: 't',
              projected: {
                defaultMode: 0o644,
                sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }],
              },
            },
          ],
          containers: [
            mounttest(['--file_content=/test-volume/token'], [{ name: 't', mountPath: '/test-volume' }]),
          ],
        }),
        new Map(),
        new Map([['t/0', 'aaa.bbb.ccc']]),
      ),
      1000,
    );
    assert.equal(token.log, 'content of file "/test-volume/token": aaa.bbb.ccc\n');
    // A token the node could not get: the program is not followed (generated log lines).
    const none = run(
      sim(
        pod({
          volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
          containers: [
            mounttest(['--file_content=/test-volume/token'], [{ name: 't', mountPath: '/test-volume' }]),
          ],
        }),
      ),
      1000,
    );
    assert.equal(none.log, '<generated>');
  });

  test('a loop without break follows the volume as the API changes it; subPath reads loop until retry_time', () => {
    const p = pod({
      volumes: [{ name: 'v', configMap: { name: 'cm', optional: true } }],
      containers: [
        mounttest(
          ['--break_on_expected_content=false', '--retry_time=120', '--file_content_in_loop=/etc/cm/data-1'],
          [{ name: 'v', mountPath: '/etc/cm' }],
        ),
      ],
    });
    const s = sim(
      p,
      new Map([
        ['configmap/cm', null],
        ['binary/cm', null],
      ]),
    );
    const early = run(s, 4000).log;
    assert.match(
      early,
      /^Error reading file \/etc\/cm\/data-1: open \/etc\/cm\/data-1: no such file or directory, retrying\n/,
    );
    s.refreshVolumes(p, { objects: cm({ 'data-1': 'value-1' }) }, 5000);
    s.refreshVolumes(p, { objects: cm({ 'data-1': 'value-2' }) }, 9000);
    const later = run(s, 12_000).log;
    assert.match(later, /content of file "\/etc\/cm\/data-1": value-1\n/);
    assert.match(later, /content of file "\/etc\/cm\/data-1": value-2\n/);
    assert.equal(run(s, 119_000).phase, 'Running');
    assert.equal(run(s, 121_000).phase, 'Failed', 'the first read failed: mounttest exits 1');
    // subPath of a ConfigMap key at a file path: the loop prints the content and "Unexpected
    // content" until retry_time, then exits 0.
    const sub = sim(
      pod({
        volumes: [{ name: 'v', configMap: { name: 'cm' } }],
        containers: [
          mounttest(
            ['--file_content_in_loop=/etc/resolv.conf', '--retry_time=20'],
            [{ name: 'v', mountPath: '/etc/resolv.conf', subPath: 'configmap-key' }],
          ),
        ],
      }),
      cm({ 'configmap-key': 'configmap-value' }),
    );
    const subLog = run(sub, 25_000);
    assert.equal(subLog.phase, 'Succeeded');
    assert.equal(subLog.log.split('content of file "/etc/resolv.conf": configmap-value\n').length - 1, 10);
  });
});
