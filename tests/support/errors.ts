/** The database's own message of a failed query (drizzle wraps it in "Failed query: …"). */
export async function dbErrorOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String((error as Error).message);
  }
  throw new Error("expected the query to fail, but it succeeded");
}
