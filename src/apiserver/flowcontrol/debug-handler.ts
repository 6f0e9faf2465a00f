/**
 * Serves the API Priority and Fairness debug paths (unlisted, as upstream installs them); they are
 * authorized as non-resource URLs by the chain before they get here.
 */
import type { ServerResponseLike } from '../response.js';
import type { FlowController } from './controller.js';
import { debugPathPrefix, dumpPriorityLevels, dumpQueues, dumpRequests } from './debug.js';

/** Answers a debug path; false for any other path. */
export function handleFlowcontrolDebug(fc: FlowController, res: ServerResponseLike, url: URL): boolean {
  if (!url.pathname.startsWith(debugPathPrefix)) return false;
  let body: string;
  switch (url.pathname.slice(debugPathPrefix.length)) {
    case 'dump_priority_levels':
      body = dumpPriorityLevels(fc);
      break;
    case 'dump_queues':
      body = dumpQueues(fc);
      break;
    case 'dump_requests':
      body = dumpRequests(fc, (url.searchParams.get('includeRequestDetails') ?? '') !== '');
      break;
    default:
      return false;
  }
  // Go's ResponseWriter sniffs plain text when no content type is set.
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
  return true;
}
