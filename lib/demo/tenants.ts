import type { Role } from "@/lib/access";
import type { SafetyLevel } from "@/lib/experts/contract";

export const DEMO_PASSWORD = "vigil-demo";

export interface SeedTenant {
  slug: string;
  name: string;
  people: { email: string; name: string; role: Role }[];
  agents: SeedAgent[];
}

export interface SeedAgent {
  slug: string;
  name: string;
  domain: string;
  description: string;
  /** A lucide icon name (components/ui/AgentIcon.tsx). */
  avatar: string;
  systemPrompt: string;
  skills: string[];
  tools: string[];
  knowledgeDomains: string[];
  defaultSafetyLevel: SafetyLevel;
  temperature: number;
  /**
   * The workflow that answers for the agent, when not `ask-expert`. The SQL and research
   * analysts come with workflows of their own; until those exist they are seeded but not listed.
   */
  workflow?: string;
}

const cite =
  "Answer only from the retrieved sources, cite each claim as [n], and say plainly when the sources are silent.";

export const SEED_TENANTS: SeedTenant[] = [
  {
    slug: "demo",
    name: "Demo Pharma",
    people: [
      { email: "expert@demo.local", name: "Erin Expert", role: "member" },
      { email: "reviewer@demo.local", name: "Riley Reviewer", role: "reviewer" },
      { email: "admin@demo.local", name: "Avery Admin", role: "admin" },
    ],
    agents: [
      {
        slug: "fda-regulatory",
        name: "FDA Regulatory Specialist",
        domain: "Regulatory affairs",
        description:
          "Submission pathways (IND, NDA, BLA, 510(k), De Novo), expedited programs and FDA meeting strategy.",
        avatar: "scale",
        systemPrompt: `You are an FDA regulatory specialist. ${cite}`,
        skills: ["Pathway selection", "Expedited programs", "Meeting preparation"],
        tools: [],
        knowledgeDomains: ["regulatory"],
        defaultSafetyLevel: "high",
        temperature: 0.1,
      },
      {
        slug: "clinical-trial-designer",
        name: "Clinical Trial Designer",
        domain: "Clinical development",
        description: "Protocol design, endpoints, randomisation, sample size and adaptive designs.",
        avatar: "flask-conical",
        systemPrompt: `You design clinical trials. ${cite}`,
        skills: ["Endpoint selection", "Sample size", "Adaptive designs"],
        tools: [],
        knowledgeDomains: ["clinical"],
        defaultSafetyLevel: "medium",
        temperature: 0.2,
      },
      {
        slug: "health-economist",
        name: "Health Economist (HEOR)",
        domain: "Health economics & outcomes research",
        description: "Cost-effectiveness, budget impact, QALYs and payer evidence dossiers.",
        avatar: "trending-up",
        systemPrompt: `You are a health economist. ${cite}`,
        skills: ["Cost-effectiveness", "Budget impact", "Value dossiers"],
        tools: [],
        knowledgeDomains: ["heor"],
        defaultSafetyLevel: "medium",
        temperature: 0.2,
      },
      {
        slug: "pharmacovigilance",
        name: "Pharmacovigilance Expert",
        domain: "Drug safety",
        description: "Adverse event reporting, signal detection, PSURs/PBRERs and risk management plans.",
        avatar: "shield-check",
        systemPrompt: `You are a pharmacovigilance expert. ${cite}`,
        skills: ["Case processing", "Signal detection", "Periodic reports"],
        tools: [],
        knowledgeDomains: ["safety"],
        defaultSafetyLevel: "high",
        temperature: 0.1,
      },
      {
        slug: "data-analyst",
        name: "Data Analyst (SQL)",
        domain: "Analytics",
        description: "Answers questions about the tenant's data by writing validated, read-only SQL.",
        avatar: "database",
        systemPrompt: "You answer data questions by writing read-only SQL over the approved views.",
        skills: ["SQL", "Join planning", "Charts"],
        tools: ["sql_query"],
        knowledgeDomains: ["analytics"],
        defaultSafetyLevel: "medium",
        temperature: 0,
        workflow: "sql-analyst",
      },
      {
        slug: "research-analyst",
        name: "Research Analyst",
        domain: "Deep research",
        description:
          "Clarifies the question, agrees a research plan with you, gathers tiered evidence and writes a cited synthesis.",
        avatar: "search",
        systemPrompt: `You are a research analyst. ${cite}`,
        skills: ["Research planning", "Evidence grading", "Synthesis"],
        tools: ["knowledge_search"],
        knowledgeDomains: ["regulatory", "clinical", "heor", "safety"],
        defaultSafetyLevel: "medium",
        temperature: 0.3,
        workflow: "deep-research",
      },
    ],
  },
  {
    slug: "acme",
    name: "Acme Devices",
    people: [
      { email: "expert@acme.local", name: "Eli Engineer", role: "member" },
      { email: "admin@acme.local", name: "Ada Admin", role: "admin" },
      // Demo Pharma's admin administers Acme too, so the demo shows the tenant switcher.
      { email: "admin@demo.local", name: "Avery Admin", role: "admin" },
    ],
    agents: [
      {
        slug: "device-quality",
        name: "Device Quality Engineer",
        domain: "Quality systems",
        description: "ISO 13485 quality management, CAPA and design controls for medical devices.",
        avatar: "wrench",
        systemPrompt: `You are a medical-device quality engineer. ${cite}`,
        skills: ["CAPA", "Design controls", "Audits"],
        tools: [],
        knowledgeDomains: ["quality"],
        defaultSafetyLevel: "medium",
        temperature: 0.2,
      },
      {
        slug: "cybersecurity-advisor",
        name: "Device Cybersecurity Advisor",
        domain: "Cybersecurity",
        description: "Premarket cybersecurity documentation, SBOMs and threat modelling for connected devices.",
        avatar: "lock",
        systemPrompt: `You advise on medical-device cybersecurity. ${cite}`,
        skills: ["Threat modelling", "SBOM", "Premarket guidance"],
        tools: [],
        knowledgeDomains: ["cyber"],
        defaultSafetyLevel: "high",
        temperature: 0.1,
      },
    ],
  },
];
