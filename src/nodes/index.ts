/** Simulated nodes and the scheduler: what `nanokube serve --nodes N` and `nanokube nodes` wire. */
export { SimulatedNodes, planNodes, simulatedNodeNames } from './simulated-nodes.js';
export type { NodeTemplate, SimulatedNodesOptions } from './simulated-nodes.js';
export { Scheduler } from './scheduler/scheduler.js';
export type { SchedulerOptions } from './scheduler/scheduler.js';
