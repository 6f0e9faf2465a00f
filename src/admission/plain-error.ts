/**
 * What kube-apiserver answers when an admission plugin returns a plain Go error rather than an
 * API status (responsewriters.ErrorToAPIStatus, apiserver v0.27): 500 with reason Unknown (the
 * empty reason) and the error's text as the message. Several upstream plugins do this
 * (PodTolerationRestriction's whitelist conflict, PodNodeSelector's selector parse errors,
 * AlwaysPullImages' aggregated refusals).
 */
import { StatusError } from '../machinery/errors.js';

export function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  if (seen.length === 1) return seen[0]!;
  return `[${seen.join(', ')}]`;
}
