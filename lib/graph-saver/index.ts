import "server-only";

export { TenantRoutingSaver } from "./routing";

export { DrizzleCheckpointSaver } from "./saver";
