export * from "./agents";
export * from "./auth";
export * from "./chat";
export * from "./checkpoints";
export * from "./tenancy";
