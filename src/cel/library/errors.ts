// Error values the library functions raise, with cel-go v0.12.7's texts (common/types/err.go).
// A function throws; @bufbuild/cel turns the exception into a CEL error value.

/** types.NoSuchOverloadErr: the arguments' runtime types match no overload. */
export function noSuchOverload(): Error {
  return new Error('no such overload');
}
