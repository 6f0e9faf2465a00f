/**
 * Our own words for the fields every kind has, for object metadata and label selectors, and for
 * list kinds. Upstream's sentences are not copied; a few begin with the words clients match on
 * in `kubectl explain` output ("APIVersion defines", "Standard object's metadata",
 * "CreationTimestamp is a timestamp"), as upstream's conformance specs do.
 */
import type { DescriptionTable } from './table.js';

/** The top-level fields of every kind (a kind's own entry in ./kinds.ts may override them). */
export const standardFieldTexts: Readonly<Record<string, string>> = {
  apiVersion:
    'APIVersion defines the API group and version of this representation of the object, e.g. "v1" or "apps/v1".',
  kind: 'The kind of object this is, e.g. "Pod"; fixed for each endpoint.',
  metadata: "Standard object's metadata: its name, namespace, labels, annotations and system-managed fields.",
  spec: 'The desired state of the object, written by its users.',
  status: 'The observed state of the object, written by the system; read-only for most clients.',
};

/** The fields of every `<Kind>List`. */
export const listFieldTexts: Readonly<Record<string, string>> = {
  apiVersion: standardFieldTexts.apiVersion!,
  kind: 'The kind of this list, e.g. "PodList".',
  metadata: 'Facts about the list itself: its resourceVersion, and a continue token when it is chunked.',
  items: 'The objects in the list.',
};

/** The text of a `<Kind>List` definition. */
export function listText(kind: string): string {
  return `A list of ${kind} objects.`;
}

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export const metaTexts: DescriptionTable = {
  [`${meta}ObjectMeta`]: {
    text: 'Data every stored object has: identity, labels, annotations, owners and bookkeeping kept by the server.',
    fields: {
      name: "The object's name, unique among objects of its kind in its namespace. Cannot change after creation.",
      generateName:
        'A prefix from which the server makes a unique name when name is empty, by appending random characters.',
      namespace:
        'The namespace the object lives in; empty for cluster-scoped kinds. Defaults to "default" for namespaced requests without one.',
      uid: 'A unique identifier the server assigns at creation; a deleted and recreated object gets a new one. Read-only.',
      resourceVersion:
        'An opaque version string that changes on every write. Send it back on update to make the write conditional; use it to list or watch from a point in time. Read-only.',
      generation:
        'A number the server increments whenever the desired state (usually spec) changes. Read-only.',
      creationTimestamp:
        'CreationTimestamp is a timestamp of when the server created the object (UTC, RFC 3339). Read-only.',
      deletionTimestamp:
        'When deletion was requested, set by the server once a graceful deletion starts or while finalizers remain. Read-only.',
      deletionGracePeriodSeconds:
        'The grace period, in seconds, the object was given when its deletion was requested. Read-only.',
      labels: 'Key-value pairs used to select and group objects (label selectors match on them).',
      annotations:
        'Key-value pairs of arbitrary, non-identifying data for tools and controllers; not used for selection.',
      ownerReferences:
        'The objects this one depends on. When every owner is gone the garbage collector deletes the object; at most one owner may be its controller.',
      finalizers:
        'Names of clean-up steps that must finish before the object is removed; deletion waits until the list is empty.',
      managedFields:
        'Which field manager (client) owns which fields, and through which operation; used by server-side apply.',
      selfLink: 'Deprecated and no longer set by the server.',
    },
  },
  [`${meta}ListMeta`]: {
    text: 'Data about a list: its version and, when it was cut short, how to continue it.',
  },
  [`${meta}LabelSelector`]: {
    text: 'Selects objects by their labels. Every condition given must hold; an empty selector matches everything and a null one matches nothing.',
    fields: {
      matchLabels: 'Labels an object must carry with exactly these values.',
      matchExpressions: 'Further conditions on labels, each a key, an operator and values.',
    },
  },
  [`${meta}LabelSelectorRequirement`]: {
    text: 'One condition on a label.',
    fields: {
      key: 'The label key the condition is about.',
      operator: 'How the label relates to values: "In", "NotIn", "Exists" or "DoesNotExist".',
      values: 'The values for In and NotIn (at least one); must be empty for Exists and DoesNotExist.',
    },
  },
  [`${meta}OwnerReference`]: {
    text: 'Points at an object that owns this one (in the same namespace, or cluster-scoped).',
    fields: {
      apiVersion: 'The API version of the owner.',
      kind: 'The kind of the owner.',
      name: 'The name of the owner.',
      uid: 'The uid of the owner; the reference only counts while it matches.',
      controller: 'Whether the owner is the controller that manages this object (at most one is).',
      blockOwnerDeletion:
        "When true and the owner is deleted in the foreground, the owner's removal waits until this object is gone.",
    },
  },
};
