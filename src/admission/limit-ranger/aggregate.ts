/**
 * The text of upstream's utilerrors.NewAggregate(errs).Error(): undefined for none, a lone
 * error as is, several as `[a, b]` with repeated texts shown once (a lone distinct text left
 * unbracketed).
 */
export function aggregateMessage(messages: readonly string[]): string | undefined {
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
}
