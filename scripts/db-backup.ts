// Backs up the embedded database while the app is stopped: npm run db:backup [-- <file>]
// Without a file the backup goes to VIGIL_BACKUP_DIR, else `backups/` beside the data folder.
import { backupEmbeddedDatabase, configFromEnv, DatabaseInUseError } from "@/lib/db";

const config = configFromEnv();
if (config.url || !config.dataDir || config.dataDir.startsWith("memory://")) {
  console.error("db:backup backs up the embedded database (VIGIL_DATA_DIR); back up a server database with pg_dump.");
  process.exit(2);
}

try {
  const { file, bytes } = await backupEmbeddedDatabase(config.dataDir, process.argv[2]);
  console.log(`Backed up ${config.dataDir} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MiB).`);
} catch (error) {
  if (error instanceof DatabaseInUseError) {
    console.error(
      `The embedded database in ${error.dataDir} is in use by ${error.holder}; stop it, then run npm run db:backup again (the app also backs the database up by itself before every migration).`,
    );
  } else {
    console.error(error instanceof Error ? error.message : String(error));
  }
  process.exit(1);
}
