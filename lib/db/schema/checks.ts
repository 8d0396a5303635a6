import { sql } from "drizzle-orm";

/** An enum's values as the list of a CHECK's `in (…)`: the contract's constants stay the one source. */
export const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
