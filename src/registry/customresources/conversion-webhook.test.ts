import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { convertThroughWebhook } from './conversion-webhook.js';
import type { WebhookPost } from './conversion-webhook.js';

const obj = (name: string, apiVersion = 'x.example.com/v1'): KubeObject => ({
  apiVersion,
  kind: 'Thing',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { a: '1' }, resourceVersion: '7' },
  spec: { n: 1 },
});

interface Review {
  request: { uid: string; desiredAPIVersion: string; objects: JsonObject[] };
}

/** A webhook that converts by setting apiVersion, optionally rewriting the answer. */
function webhook(rewrite: (answer: JsonObject, review: Review) => void = () => {}): {
  post: WebhookPost;
  sent: Review[];
} {
  const sent: Review[] = [];
  const post: WebhookPost = (_config, body) => {
    const review = body as unknown as Review;
    sent.push(review);
    const answer: JsonObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: review.request.uid,
        result: { status: 'Success' },
        convertedObjects: review.request.objects.map((o) => ({
          ...o,
          apiVersion: review.request.desiredAPIVersion,
        })),
      },
    };
    rewrite(answer, review);
    return Promise.resolve(answer);
  };
  return { post, sent };
}

const config = (post: WebhookPost, versions = ['v1']) => ({
  webhook: { conversionReviewVersions: versions, clientConfig: { url: 'https://example/convert' } },
  post,
});

describe('CRD conversion webhook', () => {
  it('sends only the objects not at the desired version, in one review, keeping order', async () => {
    const w = webhook();
    const out = await convertThroughWebhook(
      config(w.post),
      [obj('a'), obj('b', 'x.example.com/v2'), obj('c')],
      'x.example.com/v2',
    );
    assert.equal(w.sent.length, 1);
    assert.deepEqual(
      w.sent[0]!.request.objects.map((o) => (o['metadata'] as JsonObject)['name']),
      ['a', 'c'],
    );
    assert.deepEqual(
      out.map((o) => [o.metadata.name, o.apiVersion]),
      [
        ['a', 'x.example.com/v2'],
        ['b', 'x.example.com/v2'],
        ['c', 'x.example.com/v2'],
      ],
    );
  });

  it('makes no request when nothing needs converting', async () => {
    const w = webhook();
    await convertThroughWebhook(config(w.post), [obj('a', 'x.example.com/v2')], 'x.example.com/v2');
    assert.equal(w.sent.length, 0);
  });

  it('uses v1beta1 reviews when the CRD accepts only those', async () => {
    const w = webhook((answer) => {
      answer['apiVersion'] = 'apiextensions.k8s.io/v1beta1';
    });
    await convertThroughWebhook(config(w.post, ['v1beta1']), [obj('a')], 'x.example.com/v2');
    assert.equal((w.sent[0] as unknown as JsonObject)['apiVersion'], 'apiextensions.k8s.io/v1beta1');
  });

  it('keeps the original metadata but the converted labels and annotations', async () => {
    const w = webhook((answer) => {
      const converted = (answer['response'] as JsonObject)['convertedObjects'] as JsonObject[];
      converted[0]!['metadata'] = {
        ...(converted[0]!['metadata'] as JsonObject),
        labels: { b: '2' },
        resourceVersion: '99',
        annotations: { x: 'y' },
      };
    });
    const [out] = await convertThroughWebhook(config(w.post), [obj('a')], 'x.example.com/v2');
    assert.deepEqual(out!.metadata.labels, { b: '2' });
    assert.deepEqual(out!.metadata.annotations, { x: 'y' });
    assert.equal(out!.metadata.resourceVersion, '7');
  });

  const failures: [string, (answer: JsonObject, review: Review) => void, string][] = [
    [
      'a wrong uid',
      (a) => {
        (a['response'] as JsonObject)['uid'] = 'other';
      },
      'conversion webhook for x.example.com/v1, Kind=Thing failed: expected response.uid="',
    ],
    [
      'a failure result with a message',
      (a) => {
        (a['response'] as JsonObject)['result'] = { status: 'Failure', message: 'cannot convert' };
      },
      'conversion webhook for x.example.com/v1, Kind=Thing failed: cannot convert',
    ],
    [
      'a failure result without a message',
      (a) => {
        (a['response'] as JsonObject)['result'] = { status: 'Failure' };
      },
      "conversion webhook for x.example.com/v1, Kind=Thing failed: response.result.status was 'Failure', not 'Success'",
    ],
    [
      'too few objects',
      (a) => {
        (a['response'] as JsonObject)['convertedObjects'] = [];
      },
      'conversion webhook for x.example.com/v1, Kind=Thing returned 0 objects, expected 1',
    ],
    [
      'the wrong group-version',
      (a) => {
        ((a['response'] as JsonObject)['convertedObjects'] as JsonObject[])[0]!['apiVersion'] =
          'x.example.com/v3';
      },
      'conversion webhook for x.example.com/v1, Kind=Thing returned invalid object at index 0: invalid groupVersion (expected x.example.com/v2, received x.example.com/v3)',
    ],
    [
      'a changed name',
      (a) => {
        const o = ((a['response'] as JsonObject)['convertedObjects'] as JsonObject[])[0]!;
        o['metadata'] = { ...(o['metadata'] as JsonObject), name: 'other' };
      },
      'conversion webhook for x.example.com/v1, Kind=Thing returned invalid object: must have the same name: a != other',
    ],
  ];
  for (const [what, rewrite, message] of failures) {
    it(`refuses ${what} with upstream's text`, async () => {
      const w = webhook(rewrite);
      await assert.rejects(
        convertThroughWebhook(config(w.post), [obj('a')], 'x.example.com/v2'),
        (err: Error) => err.message.startsWith(message),
      );
    });
  }

  it('names the call that failed', async () => {
    const post: WebhookPost = () =>
      Promise.reject(new Error('Post "https://example/convert?timeout=30s": refused'));
    await assert.rejects(
      convertThroughWebhook(config(post), [obj('a')], 'x.example.com/v2'),
      /^Error: conversion webhook for x\.example\.com\/v1, Kind=Thing failed: Post "https:\/\/example\/convert\?timeout=30s": refused$/,
    );
  });
});
