import "server-only";

export { getAgentBySlug, listAgents } from "./catalog";
export { usableAgent } from "./workflows";
