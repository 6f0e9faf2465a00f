/** What a controller records events through (client/legacy-event-recorder.ts fits). */
import type { JsonObject } from '../../util/json.js';

export interface ControllerEvents {
  event(regarding: JsonObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Records nothing (controllers constructed without a recorder, e.g. in tests). */
export const noEvents: ControllerEvents = { event: () => undefined };
