// A server-like process for the embedded-database lock tests: it opens the database its
// environment names (VIGIL_DATA_DIR), reports on stdout, and writes a row every few
// milliseconds until it reads `stop` on stdin; `report` prints how many rows it has written.

import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { configFromEnv, openDatabase } from "@/lib/db";

const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const database = await openDatabase(configFromEnv());
await database.db.execute(sql`create table if not exists lock_probe (n int not null)`);
let writes = 0;
let stopping = false;
const writing = (async () => {
  while (!stopping) {
    await database.db.execute(sql`insert into lock_probe (n) values (${writes + 1})`);
    writes++;
    await sleep(10);
  }
})();

say({ status: "holding", pid: process.pid });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "report") say({ writes });
  if (line === "stop") {
    stopping = true;
    await writing;
    await database.close();
    say({ status: "stopped", writes });
    process.exit(0);
  }
}
