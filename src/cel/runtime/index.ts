// The CEL runtime's public surface: parse, plan, evaluate with cost, and the Kubernetes
// library types the checker and the integrator need.
export {
  parseCel,
  EXPRESSION_SIZE_CODE_POINT_LIMIT,
  MAX_RECURSION_DEPTH,
  NO_LOCATION,
  type ParsedCel,
  type Expr,
  type SourceInfo,
} from './parse.js';
export {
  newProgram,
  CelProgramError,
  type CelProgram,
  type ProgramOptions,
  type EvalOptions,
  type CelEvalResult,
} from './program.js';
export { CelRuntimeError, type CelRuntimeErrorKind } from './errors.js';
export {
  actualSize,
  callCost,
  traversalCost,
  COST_LIMIT_EXCEEDED_MESSAGE,
  SELECT_AND_IDENT_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  STRUCT_CREATE_BASE_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  REGEX_STRING_LENGTH_COST_FACTOR,
  AUTHZ_CHECK_COST,
} from './cost.js';
export { kubernetesFunctions } from './environment.js';
export {
  authorizerValue,
  requestResourceCheckValue,
  type CelAuthorizer,
  type CelAuthorizationAttributes,
  type CelAuthorizationDecision,
  type CelAuthorizationUser,
} from '../library/authz.js';
export {
  libraryRegistry,
  URL_TYPE,
  AUTHORIZER_TYPE,
  PATH_CHECK_TYPE,
  GROUP_CHECK_TYPE,
  RESOURCE_CHECK_TYPE,
  DECISION_TYPE,
} from '../library/types.js';
export { CelCompileError, formatIssues, type CelIssue } from '../issues.js';
export type { CelValue, CelInput } from '@bufbuild/cel';
