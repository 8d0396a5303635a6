// Modify-and-approve: a reviewer edits the payload as JSON; the decision carries only what changed.

/** The changed top-level fields of an edited payload, or why it cannot be sent. */
export function modificationsOf(
  original: Record<string, unknown>,
  draft: string,
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
    Object.entries(edited as Record<string, unknown>).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(original[key]),
    ),
  );
  if (Object.keys(modifications).length === 0) return { problem: "Nothing was changed — use Approve instead." };
  return { modifications };
}
