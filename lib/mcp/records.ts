import type { HitlCaseView, HitlCommandResult, HitlEventView, HitlQueueItem } from "@/lib/hitl";

// What the tools answer, in the HITL design's vocabulary: its column names (case_id,
// adapter_id, current_state, decision_outcome, actor_kind, …, timestamps in *_ms) so an agent
// written against the design reads the results it expects. Vigil's own fields (seq, from/to
// state, modifications, escalation, open_question, …) ride along under names in the same style.
// The web UI's REST API answers with the camelCase views these are made from.

export function caseRecord(view: HitlCaseView) {
  const s = view.state;
  return {
    case_id: view.id,
    schema_version: view.schemaVersion,
    payload_version: view.payloadVersion,
    adapter_id: view.adapter,
    case_type: view.caseType,
    title: view.title,
    summary: view.summary,
    payload: view.payload,
    payload_hash_sha256: view.payloadHash,
    submitter_name: view.submitter.name,
    submitter_role: view.submitter.role,
    submitter_id: view.submitter.id,
    submitter_team: view.submitter.team,
    priority: view.priority,
    confidence: view.confidence,
    created_at_ms: view.createdAt,
    updated_at_ms: view.updatedAt,
    refs: view.refs,
    state: {
      current_state: s.state,
      active_terminal_event_id: s.decisionEventId,
      active_decision_outcome: s.outcome,
      needs_clarification_since_ms: s.needsClarificationSince,
      escalation_due_at_ms: s.dueAt,
      escalated_at_ms: s.escalatedAt,
      escalation_target: s.escalatedTo,
      updated_at_ms: s.updatedAt,
      open_question: s.openQuestion,
      clarification_rounds: s.clarificationRounds,
      decided_by: s.decidedBy,
      decided_at_ms: s.decidedAt,
      escalation_level: s.escalationLevel,
      next_escalation_at_ms: s.nextEscalationAt,
      last_event_id: s.lastEventId,
    },
  };
}

export function eventRecord(event: HitlEventView) {
  return {
    event_id: event.id,
    case_id: event.caseId,
    event_type: event.type,
    decision_outcome: event.outcome,
    notes: event.notes,
    question: event.question,
    answer: event.answer,
    actor_kind: event.actor.kind,
    actor_name: event.actor.name,
    actor_role: event.actor.role,
    actor_id: event.actor.id,
    actor_team: event.actor.team,
    supersedes_event_id: event.supersedesEventId,
    request_id: event.requestId,
    event_json: event.eventJson,
    created_at_ms: event.createdAt,
    seq: event.seq,
    from_state: event.fromState,
    to_state: event.toState,
    modifications: event.modifications,
    escalation: event.escalation,
    authorization: event.authorization
      ? {
          allowed_by: event.authorization.allowedBy,
          policy_key: event.authorization.policyKey,
          rule: event.authorization.rule,
        }
      : null,
  };
}

export function queueRecord(item: HitlQueueItem) {
  return {
    case_id: item.id,
    adapter_id: item.adapter,
    case_type: item.caseType,
    title: item.title,
    summary: item.summary,
    current_state: item.state,
    priority: item.priority,
    confidence: item.confidence,
    active_decision_outcome: item.outcome,
    decided_by: item.decidedBy,
    decided_at_ms: item.decidedAt,
    escalation_due_at_ms: item.dueAt,
    escalation_level: item.escalationLevel,
    escalation_target: item.escalatedTo,
    open_question: item.openQuestion,
    submitter_id: item.createdBy,
    created_at_ms: item.createdAt,
    updated_at_ms: item.updatedAt,
  };
}

/** A command's result: the case's state after it, the event it wrote (or replayed), the run it resumed. */
export function commandRecord(result: HitlCommandResult) {
  return {
    case_id: result.caseId,
    current_state: result.state,
    replayed: result.replayed,
    event: eventRecord(result.event),
    ...(result.linkedRun
      ? {
          linked_run: {
            run_id: result.linkedRun.runId,
            interrupt_id: result.linkedRun.interruptId,
            resume: result.linkedRun.resume ?? null,
          },
        }
      : {}),
  };
}
