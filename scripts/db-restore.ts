// Replaces the embedded database with a backup while the app is stopped:
// npm run db:restore -- <file>. Without a file it lists the backups it finds.
import { backupDirOf, configFromEnv, DatabaseInUseError, listBackups, restoreEmbeddedDatabase } from "@/lib/db";

const config = configFromEnv();
if (config.url || !config.dataDir || config.dataDir.startsWith("memory://")) {
  console.error(
    "db:restore restores the embedded database (VIGIL_DATA_DIR); restore a server database with pg_restore.",
  );
  process.exit(2);
}
const dataDir = config.dataDir;
const file = process.argv[2];

if (!file) {
  const backups = await listBackups(dataDir);
  console.error("Usage: npm run db:restore -- <backup file>");
  if (backups.length === 0) console.error(`No backups found in ${backupDirOf(dataDir)}.`);
  else
    console.error(`Backups in ${backupDirOf(dataDir)}, newest first:\n${backups.map((b) => `  ${b.file}`).join("\n")}`);
  process.exit(2);
}

try {
  const { previous } = await restoreEmbeddedDatabase(dataDir, file);
  console.log(`Restored ${dataDir} from ${file}.`);
  if (previous)
    console.log(`The database it replaced is kept in ${previous}; delete that folder once you no longer need it.`);
} catch (error) {
  if (error instanceof DatabaseInUseError) {
    console.error(
      `The embedded database in ${error.dataDir} is in use by ${error.holder}; stop it, then run npm run db:restore again.`,
    );
  } else {
    console.error(error instanceof Error ? error.message : String(error));
  }
  process.exit(1);
}
