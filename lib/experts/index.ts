export { type Agent, type AgentCard, getAgentBySlug, listAgents } from "./catalog";
