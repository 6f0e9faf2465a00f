/**
 * Upstream texts for strict-decoding problems: each one is a separate HTTP Warning with
 * fieldValidation=Warn; with Strict they are joined into one message (which the handler then wraps
 * as `<Kind> in version "<v>" cannot be handled as a <Kind>: ...`).
 */

export interface StrictFindings {
  readonly unknownFields: readonly string[];
  readonly duplicateFields: readonly string[];
}

/** `unknown field "spec.foo"`, `duplicate field "metadata.name"`: one text per finding. */
export function strictDecodingWarnings(findings: StrictFindings): string[] {
  return [
    ...findings.unknownFields.map((p) => `unknown field ${JSON.stringify(p)}`),
    ...findings.duplicateFields.map((p) => `duplicate field ${JSON.stringify(p)}`),
  ];
}

/** `strict decoding error: unknown field "spec.foo", ...`, or undefined when there is nothing. */
export function strictDecodingErrorMessage(findings: StrictFindings): string | undefined {
  const texts = strictDecodingWarnings(findings);
  return texts.length === 0 ? undefined : `strict decoding error: ${texts.join(', ')}`;
}
