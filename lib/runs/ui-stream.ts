import type { CheckpointPart } from "@/lib/checkpoints/contract";
import type { DataPartName, DataParts, RunEvent, RunStatus, RunUIChunk } from "./contract";

/**
 * Turns a run's events into AI SDK UI message chunks. Deterministic: feeding the same events
 * always yields the same chunks, so a reconnecting client can be brought to the exact point it
 * left by replaying the earlier events silently.
 */
export class UIChunkAdapter {
  private openText: string | null = null;
  private openReasoning: string | null = null;
  private readonly superseded: Set<string>;
  status: RunStatus | null = null;

  /**
   * `superseded`: the parts of dead attempts the run's log names (supersededParts), known before
   * a replay reaches them: a reader replaying the log sees only the attempt that finished.
   */
  constructor(superseded: Iterable<string> = []) {
    this.superseded = new Set(superseded);
  }

  toChunks(event: RunEvent): RunUIChunk[] {
    const out: RunUIChunk[] = [];
    if ((event.type === "text" || event.type === "reasoning") && this.superseded.has(event.payload.partId)) return out;
    switch (event.type) {
      case "supersede":
        // A reader following live already showed the dead attempt's words; from here on the
        // parts are skipped, and a replay (a reload, a reconnect before them) never shows them.
        for (const partId of event.payload.partIds) this.superseded.add(partId);
        break;
      case "run-start":
        out.push({ type: "start", messageId: event.payload.runId, messageMetadata: { runId: event.payload.runId } });
        this.status = "running";
        break;
      case "step":
        out.push({ type: "data-step", id: event.payload.node, data: event.payload });
        break;
      case "text":
        if (this.openText !== event.payload.partId) {
          out.push(...this.closeText());
          out.push({ type: "text-start", id: event.payload.partId });
          this.openText = event.payload.partId;
        }
        out.push({ type: "text-delta", id: event.payload.partId, delta: event.payload.delta });
        break;
      case "reasoning":
        if (this.openReasoning !== event.payload.partId) {
          out.push(...this.closeReasoning());
          out.push({ type: "reasoning-start", id: event.payload.partId });
          this.openReasoning = event.payload.partId;
        }
        out.push({ type: "reasoning-delta", id: event.payload.partId, delta: event.payload.delta });
        break;
      case "data":
        out.push(dataChunk(event.payload.name, event.payload.data, event.payload.id));
        if (event.payload.name === "checkpoint") out.push(...toolApprovalChunks(event.payload.data as CheckpointPart));
        break;
      case "source": {
        const s = event.payload;
        out.push(
          s.kind === "url"
            ? { type: "source-url", sourceId: s.sourceId, url: s.url, title: s.title }
            : {
                type: "source-document",
                sourceId: s.sourceId,
                mediaType: s.mediaType,
                title: s.title,
                filename: s.filename,
              },
        );
        break;
      }
      case "interrupt":
        out.push(...this.closeAll());
        out.push({ type: "data-interrupt", data: { interrupts: event.payload.interrupts } });
        break;
      case "resume":
        out.push({
          type: "data-step",
          id: "decision",
          data: { node: "decision", status: "done", message: "Decision received" },
        });
        break;
      case "finish":
        out.push(...this.closeAll());
        out.push({ type: "message-metadata", messageMetadata: event.payload.metadata });
        break;
      case "status":
        this.status = event.payload.status;
        if (event.payload.status === "running") break;
        out.push(...this.closeAll());
        if (event.payload.status === "failed")
          out.push({ type: "error", errorText: event.payload.error ?? "The run failed." });
        if (event.payload.status === "cancelled") out.push({ type: "abort" });
        out.push({ type: "finish", messageMetadata: { status: event.payload.status } });
        break;
    }
    return out;
  }

  /** The run is waiting for a human or finished: the stream has nothing more to say for now. */
  get settled(): boolean {
    return this.status !== null && this.status !== "running";
  }

  private closeAll(): RunUIChunk[] {
    return [...this.closeReasoning(), ...this.closeText()];
  }

  private closeText(): RunUIChunk[] {
    if (!this.openText) return [];
    const id = this.openText;
    this.openText = null;
    return [{ type: "text-end", id }];
  }

  private closeReasoning(): RunUIChunk[] {
    if (!this.openReasoning) return [];
    const id = this.openReasoning;
    this.openReasoning = null;
    return [{ type: "reasoning-end", id }];
  }
}

/**
 * A tool-execution checkpoint is also the AI SDK's own tool approval, so any `useChat` UI shows
 * it: the tool call (id = the case id) with its parameters, then the approval request while it
 * waits, or the denial once rejected.
 */
function toolApprovalChunks(part: CheckpointPart): RunUIChunk[] {
  if (part.type !== "tool_execution") return [];
  const toolCallId = part.caseId;
  const call: RunUIChunk = {
    type: "tool-input-available",
    toolCallId,
    toolName: String(part.request.tool_name ?? "tool"),
    input: part.request.tool_parameters ?? {},
    dynamic: true,
  };
  if (part.status === "pending") return [call, { type: "tool-approval-request", approvalId: toolCallId, toolCallId }];
  if (part.status === "rejected") return [{ type: "tool-output-denied", toolCallId }];
  return [];
}

/** A data part as its typed chunk: the event log stores data untyped; the name says its shape. */
function dataChunk<N extends DataPartName>(name: N, data: unknown, id?: string): RunUIChunk {
  return { type: `data-${name}`, id, data: data as DataParts[N] } as RunUIChunk;
}
