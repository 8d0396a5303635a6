import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, real, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { AgentStatus, SafetyLevel } from "../../experts/contract";
import { createdAt, tenantRef, updatedAt } from "./tenancy";

export { AGENT_STATUSES, type AgentStatus, SAFETY_LEVELS, type SafetyLevel } from "../../experts/contract";

// The expert catalog. `model` overrides the deployment's default model when set.
export const agents = pgTable(
  "agents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    domain: text("domain").notNull(),
    description: text("description").notNull(),
    avatar: text("avatar").notNull(),
    systemPrompt: text("system_prompt").notNull(),
    model: text("model"),
    temperature: real("temperature").notNull().default(0.2),
    skills: jsonb("skills").$type<string[]>().notNull().default([]),
    tools: jsonb("tools").$type<string[]>().notNull().default([]),
    knowledgeDomains: jsonb("knowledge_domains").$type<string[]>().notNull().default([]),
    defaultSafetyLevel: text("default_safety_level").$type<SafetyLevel>().notNull().default("medium"),
    status: text("status").$type<AgentStatus>().notNull().default("active"),
    // The run workflow that answers for this agent. The catalog lists an agent only while this
    // server has that workflow, so an agent seeded ahead of its workflow stays out of sight.
    workflow: text("workflow").notNull().default("ask-expert"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("agents_tenant_slug_idx").on(t.tenantId, t.slug),
    index("agents_tenant_name_idx").on(t.tenantId, t.name),
    check("agents_safety_check", sql`${t.defaultSafetyLevel} in ('low', 'medium', 'high')`),
    check("agents_status_check", sql`${t.status} in ('active', 'draft', 'archived')`),
    check("agents_temperature_check", sql`${t.temperature} >= 0 and ${t.temperature} <= 2`),
  ],
);
