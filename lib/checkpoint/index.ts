export { TenantRoutingSaver } from "./routing";
export type { DrizzleCheckpointSaverOptions, PruneResult } from "./saver";
export { DrizzleCheckpointSaver } from "./saver";
