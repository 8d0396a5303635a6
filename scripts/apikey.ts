// Prints a new API key for a tenant: npm run apikey -- --tenant demo --role reviewer [--name ci]
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { ROLES, type Role } from "@/lib/access";
import { DatabaseInUseError } from "@/lib/db";
import { boot } from "@/lib/server";
import { createApiKey, tenantBySlug } from "@/lib/tenancy";

const { values } = parseArgs({
  options: { tenant: { type: "string" }, role: { type: "string", default: "member" }, name: { type: "string" } },
});

async function main(): Promise<number> {
  await boot({ sweeps: false });
  if (!values.tenant) {
    console.error("Usage: npm run apikey -- --tenant <slug> [--role member|reviewer|admin] [--name <label>]");
    return 2;
  }
  if (!ROLES.includes(values.role as Role)) {
    console.error(`--role must be one of ${ROLES.join(", ")}.`);
    return 2;
  }
  const tenant = await tenantBySlug(values.tenant);
  if (!tenant) {
    console.error(`No tenant with slug "${values.tenant}".`);
    return 1;
  }
  const key = await createApiKey(tenant, {
    name: values.name ?? `${values.role} key (command line)`,
    role: values.role as Role,
    createdBy: operatorAccount(),
    createdVia: "operator",
  });
  console.log(key.key);
  console.error(`Created ${key.role} key ${key.prefix}… for ${tenant.tenantName}. It is shown only once.`);
  return 0;
}

/** The key's creator: this command, and the operating-system account that ran it. */
function operatorAccount(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

const code = await main().catch((error) => {
  if (!(error instanceof DatabaseInUseError)) throw error;
  console.error(
    `The embedded database in ${error.dataDir} is in use by ${error.holder}: create the key in the app under API keys (signed in as an admin), or stop the server and run npm run apikey again.`,
  );
  process.exit(1);
});
await (await boot({ sweeps: false })).close();
process.exit(code);
