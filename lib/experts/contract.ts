// The expert catalog's client-safe contract: what GET /api/agents answers for each agent.

export const SAFETY_LEVELS = ["low", "medium", "high"] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];
export const AGENT_STATUSES = ["active", "draft", "archived"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** An agent as the catalog shows it: everything but its system prompt and tenant. */
export interface AgentCard {
  id: string;
  slug: string;
  name: string;
  domain: string;
  description: string;
  avatar: string;
  model: string | null;
  temperature: number;
  skills: string[];
  tools: string[];
  knowledgeDomains: string[];
  defaultSafetyLevel: SafetyLevel;
  status: AgentStatus;
  /** The run workflow that answers for the agent (`ask-expert` for the experts of the catalog). */
  workflow: string;
  createdAt: string;
  updatedAt: string;
}
