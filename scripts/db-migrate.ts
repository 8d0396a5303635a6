// Applies pending migrations to the configured database (DATABASE_URL, else the embedded one).
import { configFromEnv, DatabaseInUseError, DatabaseUnreadableError, openDatabase } from "@/lib/db";

try {
  const database = await openDatabase(configFromEnv());
  console.log(`Migrations applied (${database.kind}).`);
  await database.close();
} catch (error) {
  if (error instanceof DatabaseInUseError) {
    // The running app applies migrations itself every time it starts.
    console.error(`${error.message} The app applies pending migrations itself when it starts.`);
  } else if (error instanceof DatabaseUnreadableError) {
    console.error(error.message);
  } else {
    throw error;
  }
  process.exit(1);
}
