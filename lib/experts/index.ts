import "server-only";

export { getAgentBySlug, listAgents } from "./catalog";
export { AGENT_WORKFLOWS, usableAgent } from "./workflows";
