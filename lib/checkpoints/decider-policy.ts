import { and, eq } from "drizzle-orm";
import { type Role, roleAtLeast } from "@/lib/access";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { DecisionAuthority, DecisionGuard, HitlActor } from "@/lib/hitl";
import {
  type AllowedBy,
  type CheckpointTypeName,
  DECIDER_CHECKPOINT_TYPES,
  DECIDER_SAFETY_LEVELS,
  type DeciderCheckpointType,
  type DeciderPolicyTable,
  type DeciderPolicyUpdate,
  type DeciderRule,
  type DeciderSafetyLevel,
  type DeciderView,
} from "./contract";

// Separation of duties: who may decide a run's checkpoint. ONE rule (`verdictOf`) for every
// door — the inbox and the case decision route, MCP record_decision, a run's resume endpoint,
// the run and chat cards — because all of them record the decision on the checkpoint's case,
// and the HITL core asks this rule (installed as its decision guard) with the case locked.

/**
 * The defaults (DESIGN.md: a member approves checkpoints of their own runs "when the safety
 * level allows it"). Strict: the owner approves the plan of the goal they set; a reviewer who is
 * not the owner decides every step that acts (tools, sub-agents), critical decisions and the
 * final review. Balanced: the owner decides, except critical decisions. Permissive: the owner.
 */
export const DEFAULT_DECIDER_POLICY: Readonly<DeciderPolicyTable> = {
  strict: {
    plan_approval: "owner",
    tool_execution: "four_eyes",
    subagent_spawn: "four_eyes",
    critical_decision: "four_eyes",
    final_review: "four_eyes",
  },
  balanced: {
    plan_approval: "owner",
    tool_execution: "owner",
    subagent_spawn: "owner",
    critical_decision: "four_eyes",
    final_review: "owner",
  },
  permissive: {
    plan_approval: "owner",
    tool_execution: "owner",
    subagent_spawn: "owner",
    critical_decision: "owner",
    final_review: "owner",
  },
};

/** What the rule needs to know about a checkpoint case: whose run, which type, at which level. */
export interface CheckpointParties {
  ownerId: string;
  type: CheckpointTypeName;
  safetyLevel: DeciderSafetyLevel | null;
}

type Verdict =
  | { allowed: true; allowedBy: AllowedBy; policyKey: string | null; rule: DeciderRule | "reviewer" }
  | { allowed: false; policyKey: string | null; rule: DeciderRule | "reviewer"; reason: string };

const LABEL: Record<DeciderCheckpointType, string> = {
  plan_approval: "plan",
  tool_execution: "tool execution",
  subagent_spawn: "delegation to a sub-agent",
  critical_decision: "critical decision",
  final_review: "final review",
};

const isPolicyType = (type: string): type is DeciderCheckpointType =>
  (DECIDER_CHECKPOINT_TYPES as readonly string[]).includes(type);
const isLevel = (level: string | null): level is DeciderSafetyLevel =>
  level !== null && (DECIDER_SAFETY_LEVELS as readonly string[]).includes(level);

/**
 * The rule. `checkpoint` is null for a case that is no run's checkpoint (a reviewer decides).
 * A checkpoint outside the policy (a workflow without a safety level, a clarification) may be
 * decided by the run's owner or a reviewer. `four_eyes` needs the reviewer role and someone
 * other than the owner, whatever the owner's own role; the system (timeouts) always may.
 */
export function verdictOf(
  actor: { userId: string; role: Role | "system" },
  checkpoint: CheckpointParties | null,
  policy: DeciderPolicyTable,
  /** Whether the actor is the run's owner, API keys resolved to who minted them (see sameParty). */
  isOwner: boolean = checkpoint !== null && actor.userId === checkpoint.ownerId,
): Verdict {
  const reviewer = actor.role === "system" || roleAtLeast(actor.role, "reviewer");
  if (!checkpoint) {
    const decided = { policyKey: null, rule: "reviewer" as const };
    if (actor.role === "system") return { allowed: true, allowedBy: "system", ...decided };
    return reviewer
      ? { allowed: true, allowedBy: "reviewer", ...decided }
      : { allowed: false, ...decided, reason: "Your role does not allow record_decision." };
  }
  const inPolicy = isPolicyType(checkpoint.type) && isLevel(checkpoint.safetyLevel);
  const policyKey = inPolicy ? `${checkpoint.safetyLevel}.${checkpoint.type}` : null;
  const rule: DeciderRule = inPolicy
    ? policy[checkpoint.safetyLevel as DeciderSafetyLevel][checkpoint.type as DeciderCheckpointType]
    : "owner";
  const owner = isOwner;
  if (actor.role === "system") return { allowed: true, allowedBy: "system", policyKey, rule };
  if (rule === "owner") {
    if (owner) return { allowed: true, allowedBy: "owner", policyKey, rule };
    if (reviewer) return { allowed: true, allowedBy: "reviewer", policyKey, rule };
    return { allowed: false, policyKey, rule, reason: "Only the run's owner or a reviewer decides this checkpoint." };
  }
  const what = `${LABEL[checkpoint.type as DeciderCheckpointType]} of a ${checkpoint.safetyLevel} run`;
  if (owner) {
    return {
      allowed: false,
      policyKey,
      rule,
      reason: `Four eyes: the ${what} is decided by a reviewer other than the run's owner.`,
    };
  }
  if (reviewer) return { allowed: true, allowedBy: "four_eyes", policyKey, rule };
  return { allowed: false, policyKey, rule, reason: `Four eyes: the ${what} is decided by a reviewer.` };
}

const c = schema.hitlCheckpoints;
const p = schema.checkpointDeciderPolicies;

/** The run checkpoint a case stands for, or null when the case is no run's checkpoint. */
async function checkpointPartiesIn(tx: Tx, caseId: string): Promise<CheckpointParties | null> {
  const [row] = await tx
    .select({ ownerId: c.userId, type: c.checkpointType, safetyLevel: c.safetyLevel })
    .from(c)
    .where(eq(c.caseId, caseId))
    .limit(1);
  if (!row) return null;
  return {
    ownerId: row.ownerId,
    type: row.type as CheckpointTypeName,
    safetyLevel: isLevel(row.safetyLevel) ? row.safetyLevel : null,
  };
}

/** The tenant's policy: its own rules over the defaults. */
async function policyIn(tx: Tx): Promise<DeciderPolicyTable> {
  const rows = await tx.select({ level: p.safetyLevel, type: p.checkpointType, decider: p.decider }).from(p);
  const policy = structuredClone(DEFAULT_DECIDER_POLICY) as DeciderPolicyTable;
  for (const row of rows) {
    if (isLevel(row.level) && isPolicyType(row.type)) policy[row.level][row.type] = row.decider as DeciderRule;
  }
  return policy;
}

/** One rule of the tenant's policy (the one the decision needs), over the default. */
async function ruleIn(tx: Tx, level: DeciderSafetyLevel, type: DeciderCheckpointType): Promise<DeciderPolicyTable> {
  const [row] = await tx
    .select({ decider: p.decider })
    .from(p)
    .where(and(eq(p.safetyLevel, level), eq(p.checkpointType, type)));
  if (!row) return DEFAULT_DECIDER_POLICY;
  return { ...DEFAULT_DECIDER_POLICY, [level]: { ...DEFAULT_DECIDER_POLICY[level], [type]: row.decider } };
}

async function verdictIn(tx: Tx, actor: HitlActor, caseId: string) {
  const checkpoint = await checkpointPartiesIn(tx, caseId);
  const policy =
    checkpoint && isLevel(checkpoint.safetyLevel) && isPolicyType(checkpoint.type)
      ? await ruleIn(tx, checkpoint.safetyLevel, checkpoint.type)
      : DEFAULT_DECIDER_POLICY;
  const owner = checkpoint !== null && (await sameParty(tx, actor.userId, checkpoint.ownerId));
  return { checkpoint, verdict: verdictOf(actor, checkpoint, policy, owner) };
}

const API_KEY_PRINCIPAL = "apikey:";
const MAX_KEY_CHAIN = 20;

/**
 * Who stands behind a principal: an API key acts for whoever minted it (a key minted by a key,
 * for that key's minter, and so on), so the owner of a run cannot approve it as "another
 * reviewer" through a key of their own. A key made by an operator stands for itself.
 */
async function personOf(tx: Tx, principal: string): Promise<string> {
  let current = principal;
  for (let depth = 0; depth < MAX_KEY_CHAIN && current.startsWith(API_KEY_PRINCIPAL); depth++) {
    const [key] = await tx
      .select({ createdBy: schema.apiKeys.createdBy, createdVia: schema.apiKeys.createdVia })
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.id, current.slice(API_KEY_PRINCIPAL.length)));
    if (!key || key.createdVia === "operator") return current;
    current = key.createdBy;
  }
  return current;
}

async function sameParty(tx: Tx, actorId: string, ownerId: string): Promise<boolean> {
  if (actorId === ownerId) return true;
  if (!actorId.startsWith(API_KEY_PRINCIPAL) && !ownerId.startsWith(API_KEY_PRINCIPAL)) return false;
  const [actor, owner] = await Promise.all([personOf(tx, actorId), personOf(tx, ownerId)]);
  return actor === owner;
}

/**
 * The HITL core's decision guard (installed by boot): refuses in the error shape, before anything
 * is written, and returns what allowed the decision for the case history. A case of a run whose
 * checkpoint record is not written yet (the moment between the case opening and the run
 * settling) is refused as not open yet rather than decided without knowing its owner.
 */
export const checkpointDecisionGuard: DecisionGuard = async (tx, actor, kase): Promise<DecisionAuthority> => {
  const { checkpoint, verdict } = await verdictIn(tx, actor, kase.caseId);
  if (!checkpoint && kase.runRef && actor.role !== "system") {
    throw new DomainError(
      "conflict",
      "CHECKPOINT_NOT_OPEN",
      "The checkpoint's review case is not open yet; try again.",
      {
        case_id: kase.caseId,
      },
    );
  }
  if (!verdict.allowed) {
    // A case outside any run keeps the HITL API's refusal as it was: only the action it asked for.
    const rule = checkpoint ? { policy_key: verdict.policyKey, rule: verdict.rule } : {};
    throw new DomainError("forbidden", "FORBIDDEN", verdict.reason, { requested_action: "record_decision", ...rule });
  }
  return { allowedBy: verdict.allowedBy, policyKey: verdict.policyKey, rule: verdict.rule };
};

/** Whether this viewer may decide the case, and why not, for the UI to show or hide its actions. */
export async function deciderViewOf(actor: HitlActor, caseId: string): Promise<DeciderView> {
  const { verdict } = await withTenant(actor, (tx) => verdictIn(tx, actor, caseId));
  return {
    allowed: verdict.allowed,
    policyKey: verdict.policyKey,
    rule: verdict.rule,
    reason: verdict.allowed ? null : verdict.reason,
  };
}

/** The tenant's policy as an admin edits it, and which entries differ from the defaults. */
export async function deciderPolicy(
  scope: TenantScope,
): Promise<{ policy: DeciderPolicyTable; defaults: DeciderPolicyTable }> {
  const policy = await withTenant(scope, (tx) => policyIn(tx));
  return { policy, defaults: structuredClone(DEFAULT_DECIDER_POLICY) as DeciderPolicyTable };
}

/** An admin sets some rules; the others keep their value. A decision already recorded stands. */
export async function setDeciderPolicy(
  actor: TenantScope & { userId: string },
  update: DeciderPolicyUpdate,
): Promise<{ policy: DeciderPolicyTable; defaults: DeciderPolicyTable }> {
  await withTenant(actor, async (tx) => {
    for (const rule of update.rules) {
      await tx
        .insert(p)
        .values({
          tenantId: actor.tenantId,
          safetyLevel: rule.safety_level,
          checkpointType: rule.checkpoint_type,
          decider: rule.decider,
          updatedBy: actor.userId,
          updatedAt: new Date(),
        })
        .onConflictDoUpdate({
          target: [p.tenantId, p.safetyLevel, p.checkpointType],
          set: { decider: rule.decider, updatedBy: actor.userId, updatedAt: new Date() },
        });
    }
  });
  return deciderPolicy(actor);
}
