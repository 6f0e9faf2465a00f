/** Pure allocators for Service cluster IPs and node ports (no Kubernetes or storage knowledge). */
export { AllocationMap, defaultRandom } from './allocation-map.js';
export type { AllocationMapOptions, RandomInt } from './allocation-map.js';
export { clusterIPStaticBand, nodePortStaticBand } from './bands.js';
export { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './errors.js';
export { formatCIDR, formatIP, parseCIDR, parseIP } from './ip.js';
export type { CIDR, IPFamily, IPValue } from './ip.js';
export { InvalidRangeError, IPRangeAllocator, legacyIPv6MaxAddresses } from './ip-range.js';
export type { IPRangeOptions } from './ip-range.js';
export { defaultNodePortRange, formatPortRange, parsePortRange, PortRangeAllocator } from './port-range.js';
export type { PortRange, PortRangeOptions } from './port-range.js';
