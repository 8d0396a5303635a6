// Modify-and-approve as JSON: a reviewer edits the payload; the decision carries only what changed.
import { sameJson } from "./edit-form";
import { humanize } from "./format";

/**
 * The changed top-level fields of an edited payload, or why it cannot be sent. With `editable`,
 * changing any other field is refused here rather than by the server.
 */
export function modificationsOf(
  original: Record<string, unknown>,
  draft: string,
  editable: readonly string[] | null = null,
): { modifications: Record<string, unknown> } | { problem: string } {
  let edited: unknown;
  try {
    edited = JSON.parse(draft);
  } catch (error) {
    return { problem: `The changes are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
    return { problem: "The changes must be a JSON object of payload fields." };
  }
  const removed = Object.keys(original).filter((key) => !(key in edited));
  if (removed.length > 0) {
    return { problem: `Fields cannot be removed (${removed.join(", ")}); change their values instead.` };
  }
  const modifications = Object.fromEntries(
    Object.entries(edited as Record<string, unknown>).filter(([key, value]) => !sameJson(value, original[key])),
  );
  if (Object.keys(modifications).length === 0) return { problem: "Nothing was changed — use Approve instead." };
  const locked = editable ? Object.keys(modifications).filter((key) => !editable.includes(key)) : [];
  if (locked.length > 0) {
    return {
      problem: `Only ${editable?.map(humanize).join(", ")} can be changed in this case, not ${locked.join(", ")}.`,
    };
  }
  return { modifications };
}
