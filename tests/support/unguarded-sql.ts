import type { GuardedSql } from "@/lib/sql";

/**
 * TEST ONLY. Brands a statement as if the SQL guard had produced it, so connector tests can send
 * what the guard would refuse (writes, two statements, a pg_sleep) and prove the connector's own
 * defences behind it. The architecture test allows this cast here and in the guard, nowhere else.
 */
export function unguardedSqlForTests(sql: string): GuardedSql {
  return sql as GuardedSql;
}
