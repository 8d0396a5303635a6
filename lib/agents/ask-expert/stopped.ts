import { type SourceItem, saveStoppedAnswerIn } from "@/lib/chat";
import type { TenantScope, Tx } from "@/lib/db";
import { citedNumbers } from "@/lib/engine";
import type { CancelShown, RunEvent } from "@/lib/runs";

/**
 * A stopped turn keeps what its asker had read: the answer's text as streamed (its last text
 * part — a step re-run after a crash starts a new one) and the sources sent with it. It opens
 * no review: the run ends before its review gate. When the asker says how much of the text they
 * had on screen, no more than that is kept: what they read is what stays, after a reload too.
 */
export async function keepStoppedAnswer(
  tx: Tx,
  scope: TenantScope,
  run: { id: string; threadId: string },
  log: readonly RunEvent[],
  shown?: CancelShown,
): Promise<void> {
  let partId: string | null = null;
  let content = "";
  let sources: SourceItem[] = [];
  // A part of an attempt that died mid-answer is not what the asker reads (see supersede).
  const superseded = new Set(log.flatMap((e) => (e.type === "supersede" ? e.payload.partIds : [])));
  for (const event of log) {
    if (event.type === "text" && !superseded.has(event.payload.partId)) {
      if (event.payload.partId !== partId) {
        partId = event.payload.partId;
        content = "";
      }
      content += event.payload.delta;
    } else if (event.type === "data" && event.payload.name === "sources") {
      sources = ((event.payload.data as { items?: SourceItem[] } | null)?.items ?? []).slice();
    }
  }
  if (shown) content = content.slice(0, shown.textChars);
  const numbers = new Set(sources.map((s) => s.n));
  const citations = citedNumbers(content).filter((n) => numbers.has(n));
  await saveStoppedAnswerIn(tx, scope, run, { content: content.trim(), sources, citations });
}
