import "server-only";

export { getAgentBySlug, listAgents } from "./catalog";
