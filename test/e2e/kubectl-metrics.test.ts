/** kubectl 1.27 reads `/metrics`: upstream's request counter, with kubectl's own requests counted. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectlSession, kubectlSkip } from './support/session.js';

describe('kubectl get --raw /metrics', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('shows apiserver_request_total for what kubectl did, and process metrics', async () => {
    await s.ok(['create', 'configmap', 'metrics-e2e', '--from-literal=a=b']);
    await s.ok(['get', 'configmap', 'metrics-e2e', '-o', 'name']);
    const text = await s.ok(['get', '--raw', '/metrics']);
    assert.match(text, /^# TYPE apiserver_request_total counter$/m);
    assert.match(
      text,
      /^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"\} \d+$/m,
    );
    assert.match(
      text,
      /^apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="GET",version="v1"\} \d+$/m,
    );
    assert.match(text, /^apiserver_request_duration_seconds_bucket\{.*le="0\.005".*verb="POST".*\} \d+$/m);
    assert.match(text, /^apiserver_storage_objects\{resource="namespaces"\} \d+$/m);
    assert.match(text, /^process_resident_memory_bytes \d+$/m);
  });
});
