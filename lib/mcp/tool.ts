import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
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

/** Registers a tool on a server that acts for one principal (the server lives for one request). */
export function registerTool(server: McpServer, actor: HitlActor, tool: HitlTool): void {
  server.registerTool<z.ZodObject, z.ZodObject>(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
    async (args) => {
      try {
        return toolSuccess(await tool.run(actor, args));
      } catch (error) {
        return toolFailure(error);
      }
    },
  );
}
