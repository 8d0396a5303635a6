import { z } from "zod";

// Every VIGIL_* setting in one table: its name, how its text is read (a zod schema from the
// variable's text to the typed value), its default, and the one line docs/configuration.md shows.
// This file imports only zod, so anything — the database client, the logger, a script — can read
// settings without pulling in the rest of the product.

/** Environment variables as read here; `process.env` fits, and tests pass plain objects. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Setting<T> {
  /** The environment variable. */
  env: `VIGIL_${string}`;
  /** Reads the variable's text (never blank: a blank variable counts as unset). */
  schema: z.ZodType<T>;
  /** The value when the variable is unset, or set to something the schema refuses. */
  fallback: (env: Env) => T;
  /** The default as docs/configuration.md shows it. */
  shown: string;
  /** One line for docs/configuration.md. */
  description: string;
}

const setting = <T>(definition: Setting<T>): Setting<T> => definition;

// The readers below keep what each setting accepted before it moved here: a value outside the
// accepted range falls back to the default (boot logs that it did), one above a cap is capped.
const number = z.string().trim().pipe(z.coerce.number<string>());
const integer = number.pipe(z.number().int());
const positive = (max = Number.POSITIVE_INFINITY) =>
  number.pipe(
    z
      .number()
      .positive()
      .transform((n) => Math.min(n, max)),
  );
const positiveInt = (max = Number.POSITIVE_INFINITY) =>
  integer.pipe(
    z
      .number()
      .positive()
      .transform((n) => Math.min(n, max)),
  );
const atLeast = (min: number) => number.pipe(z.number().min(min));
const nonNegativeInt = integer.pipe(z.number().min(0));
const text = z.string();
const trimmed = z.string().trim();
const onOff = z.enum(["on", "off"]).transform((v) => v === "on");

/** `literature_search=20, calculator=5` as a map of seconds (at most an hour); pairs that do not read are left out. */
const perToolSeconds = z.string().transform((value) => {
  const found: Record<string, number> = {};
  for (const pair of value.split(",")) {
    const [name, raw] = pair.split("=").map((part) => part.trim());
    const n = Number(raw);
    if (name && raw !== undefined && Number.isFinite(n) && n > 0) found[name] = Math.min(n, 3600);
  }
  return found;
});

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const unset = () => undefined;
const value =
  <T>(v: T) =>
  () =>
    v;

export const SETTINGS = {
  // The embedded database and its files
  dataDir: setting({
    env: "VIGIL_DATA_DIR",
    schema: text,
    fallback: unset,
    shown: "`./.data/pglite`",
    description: "where the embedded database lives (`memory://` for a throw-away one)",
  }),
  seed: setting({
    env: "VIGIL_SEED",
    schema: onOff,
    fallback: value(true),
    shown: "on",
    description: "`off` stops the automatic demo seed of an empty embedded database",
  }),
  backupDir: setting({
    env: "VIGIL_BACKUP_DIR",
    schema: trimmed,
    fallback: unset,
    shown: "`backups/` beside the data folder",
    description: "where `npm run db:backup` and the automatic before-migration backups of the embedded database go",
  }),
  // Server database connections
  dbIdleInTransactionTimeoutMs: setting({
    env: "VIGIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS",
    schema: nonNegativeInt,
    fallback: value(15_000),
    shown: "15000",
    description:
      "a pooled server connection's transaction left idle this long is cut (`0`: off), so another instance can take over a frozen one's runs ([`operations.md`](operations.md))",
  }),
  dbLockTimeoutMs: setting({
    env: "VIGIL_DB_LOCK_TIMEOUT_MS",
    schema: nonNegativeInt,
    fallback: value(10_000),
    shown: "10000",
    description: "the longest a pooled server connection's statement waits for a lock (`0`: off)",
  }),
  dbStatementTimeoutMs: setting({
    env: "VIGIL_DB_STATEMENT_TIMEOUT_MS",
    schema: nonNegativeInt,
    fallback: value(60_000),
    shown: "60000",
    description: "the longest a pooled server connection's statement runs (`0`: off)",
  }),
  dbMigrateIdleInTransactionTimeoutMs: setting({
    env: "VIGIL_DB_MIGRATE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
    schema: nonNegativeInt,
    fallback: value(300_000),
    shown: "300000",
    description: "the same for the connection that applies migrations (which has no lock or statement timeout)",
  }),
  dbBackgroundSlots: setting({
    env: "VIGIL_DB_BACKGROUND_SLOTS",
    schema: positiveInt(),
    fallback: unset,
    shown: "half the pool",
    description:
      "server connections autonomous runs' own steps may hold at once; while a person's request, a run stopping for a reviewer or a run taking up a decision holds or waits for a connection, they narrow to one",
  }),
  // Start-up, requests and streams
  startupRetrySeconds: setting({
    env: "VIGIL_STARTUP_RETRY_S",
    schema: atLeast(0),
    fallback: value(5),
    shown: "5",
    description: "after a failed start (503 `STARTUP_FAILED` meanwhile), seconds until the next attempt",
  }),
  logLevel: setting({
    env: "VIGIL_LOG_LEVEL",
    schema: z.enum(LOG_LEVELS),
    fallback: (env): LogLevel => (env.VITEST ? "warn" : "info"),
    shown: "`info` (`warn` under Vitest)",
    description:
      "the least severe log line written: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; lines are JSON, warnings and errors on stderr, the rest on stdout",
  }),
  sseKeepAliveMs: setting({
    env: "VIGIL_SSE_KEEPALIVE_MS",
    schema: positiveInt(),
    fallback: value(15_000),
    shown: "15000",
    description: "the longest silence on an event stream before a `: keep-alive` comment goes out",
  }),
  bodyTimeoutMs: setting({
    env: "VIGIL_BODY_TIMEOUT_MS",
    schema: positive(),
    fallback: value(10_000),
    shown: "10000",
    description: "how long a JSON request body may take to arrive",
  }),
  trustedProxies: setting({
    env: "VIGIL_TRUSTED_PROXIES",
    schema: text,
    fallback: value(""),
    shown: "—",
    description:
      "IPs/CIDRs of the reverse proxies in front of Vigil, comma-separated; `X-Forwarded-For` is read only from these (sign-in limits per client address); an entry that is neither stops the request that needs it",
  }),
  imageHosts: setting({
    env: "VIGIL_IMAGE_HOSTS",
    schema: text,
    fallback: value(""),
    shown: "—",
    description:
      "hosts (or https URL prefixes) answers may load images from, comma-separated; without it answers show no remote images",
  }),
  // Runs
  runLeaseMs: setting({
    env: "VIGIL_RUN_LEASE_MS",
    schema: positive(),
    fallback: value(4_000),
    shown: "4000",
    description:
      "how long a run's lease lasts without a heartbeat; a dead process's runs are recovered after it ([`operations.md`](operations.md))",
  }),
  runHeartbeatMs: setting({
    env: "VIGIL_RUN_HEARTBEAT_MS",
    schema: positive(),
    fallback: unset,
    shown: "lease / 4",
    description: "how often an execution renews its lease (at most half the lease)",
  }),
  runNotify: setting({
    env: "VIGIL_RUN_NOTIFY",
    schema: onOff,
    fallback: value(true),
    shown: "on",
    description:
      "`off` stops LISTEN/NOTIFY wake-ups between instances (for a pooler in transaction mode); streams then poll every second and recovery sweeps on its timer",
  }),
  runStepConcurrency: setting({
    env: "VIGIL_RUN_STEP_CONCURRENCY",
    schema: positiveInt(),
    fallback: value(4),
    shown: "4",
    description:
      "autonomous work steps (plan, think, tools, sub-agents, drafting) a process executes at once; checkpoints, chats and API requests never wait for them",
  }),
  maxRunningRuns: setting({
    env: "VIGIL_MAX_RUNNING_RUNS",
    schema: positiveInt(),
    fallback: value(3),
    shown: "3",
    description: "chat and autonomous runs one person may have working at once (429 `TOO_MANY_RUNS` beyond)",
  }),
  toolsTimeoutDefaultSeconds: setting({
    env: "VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS",
    schema: positive(3600),
    fallback: value(60),
    shown: "60",
    description:
      "an autonomous run's tool call time limit, for every tool (at most 3600) ([`security.md`](security.md))",
  }),
  toolsTimeoutSeconds: setting({
    env: "VIGIL_TOOLS_TIMEOUT_SECONDS",
    schema: perToolSeconds,
    fallback: (): Record<string, number> => ({}),
    shown: "—",
    description: "per-tool time limits that win over the default (`literature_search=20,calculator=5`)",
  }),
  // Models
  modelProvider: setting({
    env: "VIGIL_MODEL_PROVIDER",
    schema: trimmed,
    fallback: unset,
    shown: "first provider with a key, else `offline`",
    description:
      "`openai`, `anthropic`, `openai-compatible` or `offline` (another name is ignored, and `/api/health` says so)",
  }),
  model: setting({
    env: "VIGIL_MODEL",
    schema: trimmed,
    fallback: unset,
    shown: "per provider (`gpt-4.1-mini`, `claude-haiku-4-5`, `llama3.1`)",
    description: "the model id; agents may override it ([`engine.md`](engine.md))",
  }),
  modelPrice: setting({
    env: "VIGIL_MODEL_PRICE",
    schema: text,
    fallback: unset,
    shown: "the price table",
    description:
      '`"input,output"` USD per million tokens for the deployment\'s own model, when the price table lacks it (e.g. `0.2,0.6`)',
  }),
  offlinePaceMs: setting({
    env: "VIGIL_OFFLINE_PACE_MS",
    schema: number.pipe(
      z
        .number()
        .min(0)
        .transform((n) => Math.min(n, 10_000)),
    ),
    fallback: value(0),
    shown: "0",
    description:
      "a pause before the first words and after each sentence the offline engine streams (demos; at most 10000)",
  }),
  // Answers and the knowledge base
  reviewConfidence: setting({
    env: "VIGIL_REVIEW_CONFIDENCE",
    schema: number.transform((n) => Math.min(Math.max(n, 0), 1)),
    fallback: value(0.35),
    shown: "0.35",
    description: "answers below this confidence become `final_review` cases (0.6 for agents with a high safety level)",
  }),
  chatSources: setting({
    env: "VIGIL_CHAT_SOURCES",
    schema: positiveInt(20),
    fallback: value(5),
    shown: "5",
    description: "how many knowledge-base passages an answer draws on (at most 20)",
  }),
  extractTimeoutMs: setting({
    env: "VIGIL_EXTRACT_TIMEOUT_MS",
    schema: positive(),
    fallback: value(60_000),
    shown: "60000",
    description: "how long extracting one knowledge upload may take (422 `EXTRACTION_TIMEOUT` beyond)",
  }),
  embeddingModel: setting({
    env: "VIGIL_EMBEDDING_MODEL",
    schema: trimmed,
    fallback: unset,
    shown: "off",
    description:
      "the embedding model of an OpenAI-compatible provider; set, retrieval adds vectors to BM25 ([`knowledge.md`](knowledge.md))",
  }),
  embeddingBaseUrl: setting({
    env: "VIGIL_EMBEDDING_BASE_URL",
    schema: trimmed,
    fallback: value("https://api.openai.com/v1"),
    shown: "`https://api.openai.com/v1`",
    description: "the embedding provider's API",
  }),
  embeddingApiKey: setting({
    env: "VIGIL_EMBEDDING_API_KEY",
    schema: trimmed,
    fallback: unset,
    shown: "—",
    description: "the embedding provider's key",
  }),
  embeddingDimensions: setting({
    env: "VIGIL_EMBEDDING_DIMENSIONS",
    schema: positiveInt(),
    fallback: unset,
    shown: "the model's",
    description: "the dimensions to ask the embedding model for",
  }),
  embeddingBatch: setting({
    env: "VIGIL_EMBEDDING_BATCH",
    schema: positive(),
    fallback: unset,
    shown: "the provider's",
    description: "passages per embedding request",
  }),
  // Fallback search
  pubmedEnabled: setting({
    env: "VIGIL_PUBMED_ENABLED",
    schema: z.enum(["1", "true", "0", "false"]).transform((v) => v === "1" || v === "true"),
    fallback: value(false),
    shown: "off",
    description:
      "`1` or `true`: PubMed is a fallback searcher when the knowledge base has nothing (`NCBI_API_KEY` raises its rate limit) ([`chat-api.md`](chat-api.md))",
  }),
  pubmedBaseUrl: setting({
    env: "VIGIL_PUBMED_BASE_URL",
    schema: trimmed,
    fallback: unset,
    shown: "NCBI E-utilities",
    description: "another address of the E-utilities API",
  }),
  webSearchUrl: setting({
    env: "VIGIL_WEB_SEARCH_URL",
    schema: trimmed,
    fallback: unset,
    shown: "off",
    description: "a web-search endpoint (`?q=…&limit=…`, or `{query}` in the URL) used as a fallback searcher",
  }),
  webSearchApiKey: setting({
    env: "VIGIL_WEB_SEARCH_API_KEY",
    schema: text,
    fallback: unset,
    shown: "—",
    description: "sent to the web-search endpoint as a bearer token",
  }),
  fallbackTimeoutMs: setting({
    env: "VIGIL_FALLBACK_TIMEOUT_MS",
    schema: positive(60_000),
    fallback: value(5000),
    shown: "5000",
    description: "the time limit of one fallback search request (at most 60000)",
  }),
  // Sweeps
  hitlSweepMs: setting({
    env: "VIGIL_HITL_SWEEP_MS",
    schema: atLeast(1000),
    fallback: value(60_000),
    shown: "60000",
    description:
      "how often each server process runs the HITL sweeps (SLA escalation, resuming runs whose case was decided during a crash); at least 1000",
  }),
  checkpointSweepMs: setting({
    env: "VIGIL_CHECKPOINT_SWEEP_MS",
    schema: atLeast(500),
    fallback: value(10_000),
    shown: "10000",
    description: "how often each server process decides checkpoints whose time ran out; at least 500",
  }),
  retentionSweepMs: setting({
    env: "VIGIL_RETENTION_SWEEP_MS",
    schema: positive(),
    fallback: value(60_000),
    shown: "60000",
    description: "how often each server process checks the tenants' retention schedules (cron, UTC)",
  }),
  traceSequenceMs: setting({
    env: "VIGIL_TRACE_SEQUENCE_MS",
    schema: positive(),
    fallback: value(1000),
    shown: "1000",
    description: "how often each server process chains audit events a crashed process left in the outbox",
  }),
  // Data sources and the demo warehouse
  datasourceKey: setting({
    env: "VIGIL_DATASOURCE_KEY",
    schema: trimmed,
    fallback: unset,
    shown:
      "development default (with a warning); in production on the embedded database, generated once into the data folder (`datasource-key`); **required** on a production server deployment (`DATABASE_URL`), which refuses to start without it",
    description:
      "32 bytes, base64 or 64 hex digits (`openssl rand -base64 32`): the AES-256-GCM key data source connection strings are sealed with",
  }),
  datasourceAllowHosts: setting({
    env: "VIGIL_DATASOURCE_ALLOW_HOSTS",
    schema: text,
    fallback: unset,
    shown: "— (public addresses only)",
    description:
      "the data-source egress policy: comma-separated `pattern[:port]` (a host name, `*.suffix`, an IP address or a CIDR range). Unset, sources may reach public addresses only; set, **only** the listed targets (a pattern without a port allows any port), which may then be loopback, link-local or private (e.g. `db.internal:5432,10.20.0.0/16`). Unix sockets are never used. The application's own database is refused either way",
  }),
  datasourceAllowPorts: setting({
    env: "VIGIL_DATASOURCE_ALLOW_PORTS",
    schema: text,
    fallback: unset,
    shown: "`1024-65535`",
    description:
      "ports (or ranges, comma-separated) a source at a public address may use while `VIGIL_DATASOURCE_ALLOW_HOSTS` is unset",
  }),
  warehouseKey: setting({
    env: "VIGIL_WAREHOUSE_KEY",
    schema: text,
    fallback: unset,
    shown:
      "development default (with a warning); in production on the embedded database, generated once into the data folder (`warehouse-key`)",
    description:
      "the passphrase the demo warehouse encrypts Northwind employees' personal fields with and `northwind.secure_employees` decrypts them with",
  }),
  sqlSourceDeadlineMs: setting({
    env: "VIGIL_SQL_SOURCE_DEADLINE_MS",
    schema: positive(600_000).transform(Math.round),
    fallback: value(15_000),
    shown: "15000",
    description:
      "how long a question waits for a network data source to open and describe itself before the analyst answers that it is unreachable",
  }),
  sqlDatasetsDir: setting({
    env: "VIGIL_SQL_DATASETS_DIR",
    schema: text,
    fallback: unset,
    shown: "`demo-data/warehouse`",
    description:
      "where the demo warehouse reads the sample databases (`.sql` or `.sql.gz`); the app ships its own copy with the licenses",
  }),
  warehouseDir: setting({
    env: "VIGIL_WAREHOUSE_DIR",
    schema: text,
    fallback: unset,
    shown: "`.data/warehouse` (beside `VIGIL_DATA_DIR`; `memory://` when that is)",
    description:
      "the demo warehouse's own embedded database; unused with `DATABASE_URL` (the warehouse then loads into that database)",
  }),
  prepareJoinGraphs: setting({
    env: "VIGIL_PREPARE_JOIN_GRAPHS",
    schema: onOff,
    fallback: value(true),
    shown: "on",
    description:
      "after the demo seed, the server builds the demo tenants' data-source join graphs in the background (loading the demo warehouse), so an admin's first view of a source and the analyst's first question find them ready; `off` leaves that to the first view",
  }),
};

export type SettingKey = keyof typeof SETTINGS;

/** The typed settings of a process: one field per entry of SETTINGS. */
export type Config = {
  readonly [K in SettingKey]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never;
};
