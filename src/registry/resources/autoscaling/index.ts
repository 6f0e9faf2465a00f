/** Every autoscaling resource this server serves (at autoscaling/v1 and autoscaling/v2). */
import type { RegistryResource } from '../../resource.js';
import { horizontalPodAutoscalers } from './horizontalpodautoscalers.js';

export const autoscalingResources: readonly RegistryResource[] = [horizontalPodAutoscalers];
