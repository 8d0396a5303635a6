import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { rememberSessionSource } from "@/lib/chat";
import { sourceDisabledReason } from "@/lib/datasources";
import { DomainError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { emit, runContextOf } from "@/lib/runs";
import { analystSettings } from "../settings";
import { resolveAnalystSource, sourceSchema } from "../source";
import type { SqlAnalystStateType } from "../state";

/**
 * Which source this question asks, and whether it answers: the consultation's source, the
 * tenant's default, or its only one (kept on the consultation, so a source added later moves no
 * one); several and none picked, the analyst asks which. The source's schema is read here, under
 * the question's deadline on the source, so an unreachable source ends the turn within seconds
 * with a clear answer instead of stalling every step after it.
 */
export async function pickSource(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const session = state.session;
  if (!session) throw new Error("route did not run");
  const resolved = await resolveAnalystSource(scope, session.dataSourceId ?? null);
  if (!resolved) {
    return {
      final_answer:
        "No data source is connected for this workspace yet. An admin can add one under Settings → Data sources.",
    };
  }
  if (!resolved.ok) {
    const names = resolved.choices.map((c) => `“${c.name}”`).join(", ");
    return {
      final_answer: `This workspace has ${resolved.choices.length} data sources: ${names}. Which one should I ask? Pick it with the source picker beside the message box and ask again (an admin can also set a default under Settings → Data sources).`,
    };
  }
  const { source } = resolved;
  if (resolved.pickedBy !== "consultation") await rememberSessionSource(scope, session.sessionId, source.id);
  const disabled = await sourceDisabledReason(scope, source.id);
  if (disabled) return { source, final_answer: disabled };
  const deadlineMs = analystSettings().sourceDeadlineMs;
  try {
    // The embedded warehouse is in-process (its first use loads the sample databases, which may
    // take longer); a network source answers within the deadline or is reported unreachable.
    const schema = sourceSchema(scope, source);
    await (source.kind === "warehouse" ? schema : withinDeadline(schema, deadlineMs));
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    logger({ sourceId: source.id }).warn(
      `SQL analyst: data source ${source.id} did not answer (${detail.slice(0, 300)})`,
    );
    emit(config, { kind: "step", message: `${source.name} could not be reached` });
    return { source, final_answer: unreachableAnswer(source.name, error, deadlineMs) };
  }
  return { source };
}

class SourceDeadline extends Error {
  override name = "SourceDeadline";
}

function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SourceDeadline(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The answer for a source that could not be reached: which one, and what the member can do. */
function unreachableAnswer(name: string, error: unknown, deadlineMs: number): string {
  const why =
    error instanceof SourceDeadline
      ? `it did not answer within ${Math.round(deadlineMs / 1000)} seconds`
      : error instanceof DomainError && error.code !== "DATA_SOURCE_UNREACHABLE"
        ? error.message
        : "the connection failed";
  return `The data source “${name}” is unreachable right now: ${why}. Nothing was queried. Try again later, pick another source with the picker beside the message box, or ask an admin to test the source under Settings → Data sources.`;
}
