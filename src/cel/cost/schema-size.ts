/**
 * Sizes of schema-described data for the cost estimator, as apiextensions-apiserver v0.27
 * pkg/apiserver/schema/cel/compilation.go sizeEstimator: a node's path (variable, then fields,
 * `@items`/`@values`/`@keys`) is walked through the DeclType and its MaxElements bounds size().
 */
import type { DeclType } from '../schema/decl-type.js';
import { type AstNode, type SizeEstimate, est } from './estimate.js';
import type { SizeEstimator } from './library-cost.js';

/** Upstream starts every path at the rule's root type whatever the variable is (self or oldSelf). */
export class DeclTypeSizeEstimator implements SizeEstimator {
  readonly #root: DeclType;

  constructor(root: DeclType) {
    this.#root = root;
  }

  estimateSize(node: AstNode): SizeEstimate | undefined {
    const path = node.path;
    if (path === undefined || path.length === 0) return undefined;
    let current: DeclType = this.#root;
    for (const name of path.slice(1)) {
      let next: DeclType | undefined;
      if (name === '@items' || name === '@values') next = current.elemType;
      else if (name === '@keys') next = current.keyType;
      else next = current.fields?.get(name)?.type;
      if (next === undefined) return undefined;
      current = next;
    }
    return est(0n, BigInt.asUintN(64, current.maxElements));
  }
}
