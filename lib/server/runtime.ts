import { startConversationCleanup, WORKFLOWS } from "@/lib/agents";
import { startRetentionSweep } from "@/lib/audit";
import {
  checkpointDecisionGuard,
  checkpointModificationChecks,
  closeCheckpointsOfFailedRun,
  openCheckpointCases,
  resumeDecidedRuns,
  resumeEarlyDecisions,
  resumeLinkedRun,
  startCheckpointSweep,
} from "@/lib/checkpoints";
import {
  type CaseDecidedListener,
  type DecisionGuard,
  installDecisionGuard,
  installModificationChecks,
  type ModificationCheck,
  onCaseDecided,
  startHitlSweeps,
} from "@/lib/hitl";
import {
  type InterruptBridge,
  type InterruptSettled,
  installInterruptBridge,
  installWorkflows,
  type RunFailed,
  startRecoveryLoop,
  type Workflow,
} from "@/lib/runs";
import { startTraceSequencer } from "@/lib/trace";

/**
 * Everything a lower layer leaves open and what fills it, in one record: the lower layers (runs,
 * the HITL core) know only the shape of each seam, and this is the one place that says which
 * feature answers it. Reading it is the way from "a run stopped for a person" or "a case was
 * decided" to the code that acts, one hop each.
 */
export interface Runtime {
  /** The workflow catalog the run executor builds graphs from. */
  workflows: readonly Workflow[];
  interrupts: {
    /** A run stopped at checkpoints: open their review cases. */
    opened: InterruptBridge;
    /** The run is marked interrupted: a decision that came in first may resume it now. */
    settled: InterruptSettled;
    /** A run failed for good: close the cases it left open. */
    failed: RunFailed;
  };
  decisions: {
    /** Who may decide a checkpoint's case (the tenant's separation-of-duties policy). */
    guard: DecisionGuard;
    /** A reviewer's edits to a checkpoint, by checkpoint type, checked before they are recorded. */
    modificationChecks: Record<string, ModificationCheck>;
    /** A case of a waiting run was decided: resume the run. */
    decided: CaseDecidedListener;
  };
  /** The background sweeps a server process runs (tests drive them by hand). */
  sweeps: readonly { name: string; start: () => void }[];
}

export function buildRuntime(): Runtime {
  return {
    workflows: WORKFLOWS,
    interrupts: { opened: openCheckpointCases, settled: resumeEarlyDecisions, failed: closeCheckpointsOfFailedRun },
    decisions: {
      guard: checkpointDecisionGuard,
      modificationChecks: checkpointModificationChecks(),
      decided: resumeLinkedRun,
    },
    sweeps: [
      { name: "trace sequencer", start: startTraceSequencer },
      { name: "retention", start: startRetentionSweep },
      { name: "run recovery", start: startRecoveryLoop },
      { name: "HITL sweeps (decided runs, escalation)", start: () => startHitlSweeps(resumeDecidedRuns) },
      { name: "checkpoint timeouts", start: startCheckpointSweep },
      { name: "conversation cleanup", start: startConversationCleanup },
    ],
  };
}

/** Fills every seam of the lower layers from the runtime; idempotent (each install replaces). */
export function installRuntime(runtime: Runtime): void {
  installWorkflows(runtime.workflows);
  installInterruptBridge(runtime.interrupts.opened, runtime.interrupts.settled, runtime.interrupts.failed);
  installModificationChecks(runtime.decisions.modificationChecks);
  installDecisionGuard(runtime.decisions.guard);
  onCaseDecided(runtime.decisions.decided);
}
