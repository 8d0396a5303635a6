import type { TenantScope } from "@/lib/db";
import { searchKnowledge, searchScopeOf } from "@/lib/rag";
import { configuredSearchers, fallbackSearch } from "@/lib/search";
import type { DataTouched } from "@/lib/trace/contract";
import type { DataAccessScope, EvidenceLevel, Severity, ToolCategory } from "../contract";
import { CalculatorError, calculate } from "./calculator";
import { ToolTimeoutError, toolTimeoutSeconds, withToolTimeout } from "./tool-timeout";

/** A passage a tool found: what the answer may cite. */
export interface FoundPassage {
  chunkId: string;
  documentId: string;
  title: string;
  text: string;
  score: number;
  url?: string;
  /** The passage's document's evidence level (null: unrated; absent: not a knowledge-base passage). */
  evidenceLevel?: EvidenceLevel | null;
  /** How the knowledge base ranked it, as retrieval actually ran (the design's search_method). */
  searchMethod?: "lexical" | "hybrid";
}

export interface ToolOutcome {
  observation: string;
  passages: FoundPassage[];
  output: Record<string, unknown>;
  /** The tenant's data the tool read, by class (what its trace event records as PHI access). */
  touched?: DataTouched[];
}

export interface ToolContext {
  scope: TenantScope;
  knowledgeDomains: string[];
  /** Only these domains, without the product guide every agent otherwise also searches (a worker's one domain). */
  exactDomains?: boolean;
  signal?: AbortSignal;
  /** The tenant's time limit for this tool (its registry row); the deployment's otherwise. */
  timeoutSeconds?: number | null;
  /**
   * The same for every execution of the step that calls the tool (lib/runs idempotencyKeyOf):
   * a tool with a side effect passes it on (an MCP tool in `_meta`, an API in its idempotency
   * header) so a step that runs again after a crash does not do the effect twice. The built-in
   * tools only read.
   */
  idempotencyKey?: string;
}

/** A tool as the tenant's registry sees it: what it touches decides its risk. */
export interface ToolSpec {
  name: string;
  description: string;
  category: ToolCategory;
  data_access_scope: DataAccessScope;
  external_api: boolean;
  requires_sandbox: boolean;
  expected_output: string;
  /** Set by the tenant's registry; otherwise derived (riskOfTool). */
  risk_level?: Severity;
  enabled: boolean;
  /** The tenant's per-tool time limit; absent or null: the deployment's (toolTimeoutSeconds). */
  timeout_seconds?: number | null;
}

interface BuiltInTool extends ToolSpec {
  /** Whether this deployment can run it at all (literature search needs a configured searcher). */
  available(): boolean;
  run?(params: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const BUILT_IN_TOOLS: readonly BuiltInTool[] = [
  {
    name: "knowledge_search",
    description: "Searches the agent's knowledge domains in the tenant's knowledge base.",
    category: "rag",
    data_access_scope: "read_only",
    external_api: false,
    requires_sandbox: false,
    expected_output: "Up to five passages from the knowledge base, each with its document and score.",
    enabled: true,
    available: () => true,
    async run(params, context) {
      const query = String(params.query ?? "").slice(0, 1000);
      const found = await searchKnowledge(context.scope, {
        query,
        k: 5,
        domains: context.exactDomains ? context.knowledgeDomains : searchScopeOf(context.knowledgeDomains, query),
      });
      const passages = found.items.map((hit) => ({
        chunkId: hit.chunkId,
        documentId: hit.documentId,
        title: hit.title,
        text: hit.text,
        score: hit.score,
        evidenceLevel: hit.evidenceLevel,
        searchMethod: found.retrieval,
      }));
      return {
        observation:
          passages.length === 0
            ? `No passage in the knowledge base matches "${clip(query, 80)}".`
            : `Found ${passages.length} passages: ${passages.map((p) => p.title).join("; ")}.`,
        passages,
        output: { query, found: passages.length, retrieval: found.retrieval },
        touched: [
          ...new Map(
            found.items.map((hit) => [
              hit.documentId,
              { kind: "knowledge", id: hit.documentId, classification: hit.dataClassification },
            ]),
          ).values(),
        ],
      };
    },
  },
  {
    name: "calculator",
    description: "Evaluates an arithmetic expression (numbers, + - * / ^, %, and functions such as sqrt or round).",
    category: "calculation",
    data_access_scope: "read_only",
    external_api: false,
    requires_sandbox: true,
    expected_output: "The expression's value.",
    enabled: true,
    available: () => true,
    async run(params, context) {
      const expression = String(params.expression ?? "");
      const { result, text } = await calculate(expression, context.signal);
      return {
        observation: `${expression} = ${text}`,
        passages: [],
        output: { expression, result },
      };
    },
  },
  {
    name: "literature_search",
    description: "Searches the configured external literature sources (PubMed, web search).",
    category: "web_search",
    data_access_scope: "read_only",
    external_api: true,
    requires_sandbox: false,
    expected_output: "Up to three external results with their titles and links.",
    enabled: true,
    available: () => configuredSearchers().length > 0,
    async run(params, context) {
      const query = String(params.query ?? "").slice(0, 1000);
      const result = await fallbackSearch(query, { limit: 3, signal: context.signal });
      if (result.hits.length === 0 && result.failures.length > 0) {
        throw new Error(
          `Literature search failed: ${result.failures.map((f) => `${f.searcher} ${f.error}`).join("; ")}`,
        );
      }
      const passages = result.hits.map((hit) => ({
        chunkId: hit.id,
        documentId: hit.id,
        title: hit.title,
        text: hit.text,
        score: 1 / hit.rank,
        url: hit.url,
      }));
      return {
        observation: `Found ${passages.length} external results.`,
        passages,
        output: { query, found: passages.length, searchers: result.searchers },
      };
    },
  },
  {
    name: "ask_expert",
    description: "Delegates a step to another expert of the catalog, who works it with its own tools and knowledge.",
    category: "agent",
    data_access_scope: "read_only",
    external_api: false,
    requires_sandbox: false,
    expected_output: "The specialist's cited findings.",
    enabled: true,
    available: () => true,
  },
];

const RISK_ORDER: readonly Severity[] = ["low", "medium", "high", "critical"];
const BASE_RISK: Record<ToolCategory, Severity> = {
  rag: "low",
  calculation: "low",
  agent: "medium",
  web_search: "medium",
  database: "medium",
  code_execution: "high",
};

export const riskAtLeast = (risk: Severity, floor: Severity) => RISK_ORDER.indexOf(risk) >= RISK_ORDER.indexOf(floor);
const maxRisk = (...risks: Severity[]) => risks.reduce((a, b) => (riskAtLeast(a, b) ? a : b));

/**
 * A tool's risk from what it touches (the design's tool category, data-access scope and
 * external call), unless the tenant set one: an external call is at least medium, writing is
 * high and admin access critical.
 */
export function riskOfTool(tool: ToolSpec): Severity {
  if (tool.risk_level) return tool.risk_level;
  const scopeRisk: Severity =
    tool.data_access_scope === "admin" ? "critical" : tool.data_access_scope === "write" ? "high" : "low";
  return maxRisk(BASE_RISK[tool.category], scopeRisk, tool.external_api ? "medium" : "low");
}

/** A tenant's registry row for a tool (lib/db tool_registry). */
export interface ToolRegistryRow {
  toolName: string;
  category: ToolCategory;
  riskLevel: Severity;
  dataAccessScope: DataAccessScope;
  externalApi: boolean;
  enabled: boolean;
  timeoutSeconds?: number | null;
}

/** The tools a tenant's agents can use here: the built-ins this deployment can run, as its registry sets them. */
export function tenantTools(rows: readonly ToolRegistryRow[]): ToolSpec[] {
  const byName = new Map(rows.map((row) => [row.toolName, row]));
  return BUILT_IN_TOOLS.filter((tool) => tool.available()).map(({ available: _a, run: _r, ...tool }) => {
    const row = byName.get(tool.name);
    if (!row) return tool;
    return {
      ...tool,
      category: row.category,
      risk_level: row.riskLevel,
      data_access_scope: row.dataAccessScope,
      external_api: row.externalApi,
      enabled: row.enabled,
      timeout_seconds: row.timeoutSeconds ?? null,
    };
  });
}

/** The tools every expert has unless an admin takes one away. */
export const DEFAULT_AGENT_TOOLS: readonly string[] = ["knowledge_search", "calculator", "ask_expert"];

/**
 * The tools one agent may use in an autonomous run: enabled by the tenant, and the defaults
 * plus the agent's own grants, as an admin's per-agent settings add or remove them.
 */
export function agentTools(
  tools: readonly ToolSpec[],
  granted: readonly string[],
  overrides: ReadonlyMap<string, boolean> = new Map(),
): ToolSpec[] {
  return tools.filter(
    (tool) =>
      tool.enabled &&
      (overrides.get(tool.name) ?? (DEFAULT_AGENT_TOOLS.includes(tool.name) || granted.includes(tool.name))),
  );
}

/**
 * Runs a tool by name within its time limit (the tenant's for this tool, else toolTimeoutSeconds);
 * the caller has checked that the agent may use it. A call over its limit rejects with a
 * ToolTimeoutError.
 */
export async function runTool(
  name: string,
  params: Record<string, unknown>,
  context: ToolContext,
): Promise<ToolOutcome> {
  const tool = BUILT_IN_TOOLS.find((t) => t.name === name);
  const run = tool?.run;
  if (!run) throw new Error(`The tool ${name} cannot be run directly.`);
  return withToolTimeout(name, context.timeoutSeconds ?? toolTimeoutSeconds(name), context.signal, (signal) =>
    run(params, { ...context, signal }),
  );
}

/**
 * Whether a tool's failure would only repeat: a call that used up its time, or a calculation
 * refused or stopped (the same expression fails the same way).
 */
export const retryWouldRepeat = (error: unknown) =>
  error instanceof ToolTimeoutError || error instanceof CalculatorError;
