import { createHash, randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type Tx, withAppRole } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { clientAddress } from "./client-address";

/**
 * How many failed sign-ins each subject gets before it must wait, per account (unknown accounts
 * too, so a 429 tells nothing about which exist) and per client address (which sees attempts on
 * many accounts). Past that, every failure locks the subject for twice as long as the last one.
 */
const FREE_FAILURES = { account: 5, address: 20 } as const;
const FIRST_LOCK_SECONDS = 30;
const LONGEST_LOCK_SECONDS = 15 * 60;
/** Failures older than this, with none since, are forgotten. Longer than any lock. */
const FORGET_AFTER_SECONDS = 60 * 60;

type Kind = keyof typeof FREE_FAILURES;
interface Subject {
  kind: Kind;
  hash: string;
}

/** What a finished attempt says about the password: only "failed" keeps counting against it. */
export type SignInVerdict = "succeeded" | "failed" | "void";

/**
 * Runs one password check under the limits, on every path that checks a password. The attempt is
 * counted before `work` runs, in one transaction per sign-in that every instance sees, so
 * guesses sent all at once cannot slip past the count; `verdict` then settles it. A success
 * counts for nothing and clears the account's failures; an error other than a wrong password
 * (the check could not be made) counts for nothing either.
 * Throws TOO_MANY_SIGN_IN_ATTEMPTS (429, details.retry_after in seconds) while a subject waits.
 */
export async function limitSignIn<T>(
  headers: Headers,
  email: string,
  work: () => Promise<T>,
  verdict: (result: T) => SignInVerdict,
): Promise<T> {
  const subjects = [
    subjectOf("account", email.trim().toLowerCase()),
    // Requests whose address cannot be learned share one: better one crowded count than none.
    subjectOf("address", clientAddress(headers) ?? "unknown"),
  ];
  const attemptId = await countAttempt(subjects);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await settle(subjects, attemptId, "void");
    throw error;
  }
  await settle(subjects, attemptId, verdict(result));
  return result;
}

function subjectOf(kind: Kind, value: string): Subject {
  return { kind, hash: createHash("sha256").update(`${kind}:${value}`).digest("hex") };
}

/** Counts the attempt against every subject, or none of them if any must still wait. */
async function countAttempt(subjects: Subject[]): Promise<string> {
  const attemptId = randomUUID();
  await withAppRole(async (tx) => {
    // Always the account first, then the address: concurrent sign-ins lock rows in one order.
    for (const subject of subjects) {
      const counted = rowsOf(await tx.execute(countFailure(subject, attemptId)));
      if (counted.length === 0) throw tooManyAttempts(await secondsLocked(tx, subjects));
    }
    await tx.execute(forgetStale);
  });
  return attemptId;
}

/** One more failure, unless the subject is locked; a lock past the free failures that doubles. */
function countFailure(subject: Subject, attemptId: string): SQL {
  const failures = sql`case when l.last_failure_at <= now() - ${seconds(FORGET_AFTER_SECONDS)} then 1 else l.failures + 1 end`;
  return sql`
    insert into sign_in_limits as l (subject, kind, failures, last_failure_at, locked_until, attempt_id)
    values (${subject.hash}, ${subject.kind}, 1, now(), ${lockAfter(sql`1`, subject.kind)}, ${attemptId})
    on conflict (subject) do update set
      failures = ${failures},
      last_failure_at = now(),
      locked_until = ${lockAfter(failures, subject.kind)},
      attempt_id = excluded.attempt_id
    where l.locked_until is null or l.locked_until <= now()
    returning l.failures`;
}

function lockAfter(failures: SQL, kind: Kind): SQL {
  const free = sql.raw(String(FREE_FAILURES[kind]));
  const lockSeconds = sql`least(${sql.raw(String(LONGEST_LOCK_SECONDS))}, ${sql.raw(String(FIRST_LOCK_SECONDS))} * power(2, ${failures} - ${free} - 1))`;
  return sql`case when ${failures} > ${free} then now() + make_interval(secs => ${lockSeconds}) end`;
}

function seconds(n: number): SQL {
  return sql.raw(`interval '${n} seconds'`);
}

// A few forgotten rows per attempt, never waiting on a row another sign-in holds.
const forgetStale = sql`
  delete from sign_in_limits where subject in (
    select subject from sign_in_limits where last_failure_at <= now() - ${seconds(FORGET_AFTER_SECONDS)}
    limit 20 for update skip locked)`;

async function secondsLocked(tx: Tx, subjects: Subject[]): Promise<number> {
  const hashes = sql.join(
    subjects.map((s) => sql`${s.hash}`),
    sql`, `,
  );
  const [row] = rowsOf<{ seconds: number | null }>(
    await tx.execute(sql`
      select ceil(extract(epoch from max(locked_until) - now()))::int as seconds
      from sign_in_limits where subject in (${hashes}) and locked_until > now()`),
  );
  return Math.max(1, row?.seconds ?? 1);
}

/** Takes back what the attempt counted, unless it was a wrong password; a success also clears the account. */
async function settle(subjects: Subject[], attemptId: string, verdict: SignInVerdict): Promise<void> {
  if (verdict === "failed") return;
  await withAppRole(async (tx) => {
    for (const subject of subjects) {
      if (verdict === "succeeded" && subject.kind === "account") {
        await tx.execute(sql`delete from sign_in_limits where subject = ${subject.hash}`);
        continue;
      }
      await tx.execute(sql`
        update sign_in_limits set
          failures = greatest(failures - 1, 0),
          locked_until = case when attempt_id = ${attemptId} then null else locked_until end
        where subject = ${subject.hash}`);
    }
  });
}

function tooManyAttempts(retryAfter: number): DomainError {
  const wait = retryAfter < 120 ? `${retryAfter} seconds` : `${Math.ceil(retryAfter / 60)} minutes`;
  return new DomainError(
    "rate_limited",
    "TOO_MANY_SIGN_IN_ATTEMPTS",
    `Too many sign-in attempts. Try again in ${wait}.`,
    { retry_after: retryAfter },
  );
}
