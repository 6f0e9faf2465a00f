/** meta.k8s.io/v1 Table: how `kubectl get` receives rows and columns from the server. */
import type { JsonValue } from '../util/json.js';
import type { KubeObject } from './object.js';

export interface TableColumnDefinition {
  readonly name: string;
  /** OpenAPI type: "string", "integer", "number", "boolean", "date". */
  readonly type: string;
  /** e.g. "name" for the object name column. */
  readonly format: string;
  readonly description: string;
  /** 0: shown by default; 1: only with `-o wide`. */
  readonly priority: number;
}

/** Turns one object into one table row's cells, in the order of `columns`. */
export interface TableConvertor {
  readonly columns: readonly TableColumnDefinition[];
  /** `now` is passed in so ages are computed once per response. */
  cells(obj: KubeObject, now: Date): JsonValue[];
}
