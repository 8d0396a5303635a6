export * from "./agents";
export * from "./audit";
export * from "./auth";
export * from "./chat";
export * from "./checkpoints";
export * from "./hitl";
export * from "./runs";
export * from "./tenancy";
