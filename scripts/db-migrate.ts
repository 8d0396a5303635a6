// Applies pending migrations to the configured database (DATABASE_URL, else the embedded one).
import { configFromEnv, openDatabase } from "@/lib/db";

const database = await openDatabase(configFromEnv());
console.log(`Migrations applied (${database.kind}).`);
await database.close();
