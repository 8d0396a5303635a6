import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorResponse } from "@/lib/http";

// A tool answers with JSON, as text content (what every client shows a model) and as
// structuredContent (what a program reads); its errors in the REST API's one error shape.

function asToolResult(body: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body,
    ...(isError ? { isError: true } : {}),
  };
}

/** `{status: "success", ...body}`. */
export function toolSuccess(body: object): CallToolResult {
  return asToolResult({ status: "success", ...body }, false);
}

/**
 * A refusal in the API's one error shape, built by the same code that answers HTTP errors:
 * `{status: "error", code, message, details}` for an DomainError, `{status: "not_found", …}` for a
 * missing resource, and a logged INTERNAL error without internals for anything else.
 */
export async function toolFailure(error: unknown): Promise<CallToolResult> {
  const body = (await errorResponse(error).json()) as Record<string, unknown>;
  return asToolResult(body, true);
}
