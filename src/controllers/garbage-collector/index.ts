export { GarbageCollector } from './garbage-collector.js';
export type { GarbageCollectorEvent, GarbageCollectorOptions } from './garbage-collector.js';
export { metadataListWatchClient } from './metadata.js';
