import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { DomainError, errors } from "@/lib/errors";
import type { HitlActor } from "@/lib/hitl";
import { toolFailure, toolSuccess } from "./results";

/** One MCP tool over the HITL core: its contract (name, arguments) and the lib call it makes. */
export interface HitlTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Arguments, validated by the SDK before `run` and published as the tool's JSON Schema. */
  input: S;
  annotations: ToolAnnotations;
  /**
   * The success body (without `status`); a thrown error becomes an error result. (A method, so a
   * tool of any input schema fits in one list of tools.)
   */
  run(actor: HitlActor, args: z.output<S>): Promise<object>;
}

/** Keeps each tool's `run` typed by its own input schema. */
export function defineTool<S extends z.ZodObject>(tool: HitlTool<S>): HitlTool<S> {
  return tool;
}

/** Runs a tool for one principal: arguments that do not fit its schema are refused like any other error. */
export async function callTool(actor: HitlActor, tool: HitlTool, args: unknown): Promise<CallToolResult> {
  try {
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) throw errors.validation(parsed.error.issues);
    return toolSuccess(await tool.run(actor, parsed.data));
  } catch (error) {
    return toolFailure(error);
  }
}

/**
 * Registers the tools on a server that acts for one principal (the server lives for one
 * request). The SDK publishes them (`tools/list`, with their JSON Schemas); calls are answered
 * here, so that arguments the schema refuses get the API's JSON error result
 * (`VALIDATION_FAILED` with the failing paths) rather than the SDK's plain-text one.
 */
export function registerTools(server: McpServer, actor: HitlActor, tools: readonly HitlTool[]): void {
  for (const tool of tools) {
    server.registerTool<z.ZodObject, z.ZodObject>(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (args) => callTool(actor, tool, args),
    );
  }
  server.server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) {
      return toolFailure(
        new DomainError("not_found", "TOOL_NOT_FOUND", `There is no tool named "${request.params.name}".`),
      );
    }
    return callTool(actor, tool, request.params.arguments);
  });
}
