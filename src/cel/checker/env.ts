/**
 * The checker's environment, as cel-go v0.12.7 checker/env.go configured by Kubernetes v1.27
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go getBaseEnv): the standard
 * declarations, the Kubernetes libraries, homogeneous aggregate literals and no cross-type
 * numeric comparisons, plus the variables and object types of one rule.
 */
import { addFunctions, type FunctionDecl } from './decls.js';
import { kubernetesLibraryFunctions } from './k8s-library.js';
import { crossTypeNumericComparisonOverloads, standardFunctions, standardIdents } from './standard.js';
import type { CheckedType } from './types.js';

/** Object types known to the environment (cel-go's ref.TypeProvider, as far as checking needs). */
export interface TypeProvider {
  /**
   * The type an identifier naming this type gets, or undefined when the name is not a type.
   * (Kubernetes' RuleTypes answers with the object type itself.)
   */
  findType(name: string): CheckedType | undefined;
  /** The declared type of a field, or undefined when the object has no such field. */
  findFieldType(typeName: string, fieldName: string): CheckedType | undefined;
}

const noTypes: TypeProvider = {
  findType: () => undefined,
  findFieldType: () => undefined,
};

export interface CheckerEnvOptions {
  /** Variables in scope (`self`, `oldSelf`, …). */
  readonly variables?: ReadonlyMap<string, CheckedType>;
  readonly types?: TypeProvider;
  /** Functions beyond the standard ones (default: the Kubernetes libraries). */
  readonly functions?: readonly FunctionDecl[];
  /** Default true, as Kubernetes. */
  readonly homogeneousAggregateLiterals?: boolean;
  /** Default false, as Kubernetes v1.27. */
  readonly crossTypeNumericComparisons?: boolean;
}

export class CheckerEnv {
  readonly #idents: ReadonlyMap<string, CheckedType>;
  readonly #functions: ReadonlyMap<string, FunctionDecl>;
  readonly types: TypeProvider;
  readonly homogeneousAggregateLiterals: boolean;
  readonly disabledOverloads: ReadonlySet<string>;

  constructor(options: CheckerEnvOptions = {}) {
    const idents = new Map(standardIdents);
    for (const [name, type] of options.variables ?? []) idents.set(name, type);
    this.#idents = idents;
    const functions = new Map<string, FunctionDecl>();
    addFunctions(functions, standardFunctions);
    addFunctions(functions, options.functions ?? kubernetesLibraryFunctions);
    this.#functions = functions;
    this.types = options.types ?? noTypes;
    this.homogeneousAggregateLiterals = options.homogeneousAggregateLiterals ?? true;
    this.disabledOverloads =
      options.crossTypeNumericComparisons === true ? new Set() : crossTypeNumericComparisonOverloads;
  }

  /** A global identifier: a declared variable or type name, or a type the provider knows. */
  lookupIdent(name: string): { name: string; type: CheckedType } | undefined {
    // With the empty container the only candidate is the name itself (a leading '.' is dropped).
    const candidate = name.startsWith('.') ? name.slice(1) : name;
    const declared = this.#idents.get(candidate);
    if (declared !== undefined) return { name: candidate, type: declared };
    const type = this.types.findType(candidate);
    if (type !== undefined) return { name: candidate, type };
    return undefined;
  }

  lookupFunction(name: string): FunctionDecl | undefined {
    return this.#functions.get(name.startsWith('.') ? name.slice(1) : name);
  }
}
