/** The seam where storage errors become API errors (upstream's storeerr.InterpretXError). */
import type { GroupResource } from '../../machinery/errors.js';
import { apiErrors, StatusError } from '../../machinery/errors.js';
import { StorageError } from '../../storage/errors.js';

export type Operation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'watch';

export function translateStorageError(err: unknown, gr: GroupResource, name: string, op: Operation): Error {
  if (err instanceof StatusError) return err;
  if (!(err instanceof StorageError)) return err instanceof Error ? err : new Error(String(err));
  switch (err.code) {
    case 'NotFound':
      return apiErrors.notFound(gr, name);
    case 'KeyExists':
      return op === 'create' ? apiErrors.alreadyExists(gr, name) : apiErrors.modifiedConflict(gr, name);
    case 'ResourceVersionConflicts':
    case 'SideConditionFailed':
      return apiErrors.modifiedConflict(gr, name);
    case 'PreconditionFailed':
      return apiErrors.conflict(gr, name, err.message);
    case 'InvalidObject':
      // Upstream's store returns a plain error, which ErrorToAPIStatus turns into a 500 with no
      // reason and the bare message (e.g. a create with resourceVersion set).
      return new StatusError(500, '', err.message);
    case 'CorruptObject':
    case 'InternalError':
      return apiErrors.internal(err);
    case 'Expired':
      return apiErrors.resourceExpired(
        op === 'watch' ? err.message : 'The resourceVersion for the provided list is too old.',
      );
    case 'InvalidContinue':
      return apiErrors.badRequest(err.message);
    case 'TooLargeResourceVersion':
      return apiErrors.tooLargeResourceVersion(0, err.revision, 1);
    case 'RequestTooLarge':
      // kube-apiserver passes etcd's error through ErrorToAPIStatus: code 500, no reason.
      return new StatusError(500, '', err.message);
  }
}
