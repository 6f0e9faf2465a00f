/**
 * What the fuzz cases expect to find: the CRD of the custom resource target (served before the
 * cases start), and one object per target that updates, patches and subresources aim at. Cases
 * may delete or break them, so `ensureFixtures` runs again now and then.
 */
import { crd, existingName, targets, validObject } from './targets.js';

export interface Requester {
  request(
    method: string,
    path: string,
    o?: { readonly body?: unknown },
  ): Promise<{ readonly status: number; readonly text: string }>;
}

async function poll(what: string, f: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function installCrd(s: Requester): Promise<void> {
  const r = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
  if (r.status !== 201 && r.status !== 409) throw new Error(`CRD: ${r.status} ${r.text}`);
  await poll('the custom resource to be served', async () => {
    const list = await s.request('GET', '/apis/fuzz.example.com/v1/namespaces/default/fuzzers');
    return list.status === 200;
  });
}

/** Creates each target's object when it is missing. */
export async function ensureFixtures(s: Requester): Promise<void> {
  for (const t of targets) {
    const r = await s.request('POST', t.collection, { body: validObject(t, existingName(t)) });
    if (r.status !== 201 && r.status !== 409) throw new Error(`fixture ${t.resource}: ${r.status} ${r.text}`);
  }
}
