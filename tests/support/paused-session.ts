import { randomUUID } from "node:crypto";
import net from "node:net";

/**
 * A PostgreSQL session left as a process paused (SIGSTOP, a paused VM) inside a postgres-js
 * statement leaves it: `setup` runs in an open transaction (taking the locks the test needs), then
 * the next statement's Parse and Describe are sent and answered, and its Bind never comes. The
 * server then waits on the client with the session 'active' (wait event ClientRead), the state a
 * real pause lands in whenever postgres-js has sent a statement it had not prepared on that
 * connection. Spoken over the wire protocol by hand because no driver can be stopped between two
 * messages on purpose. Trust authentication only (the test server's).
 */
export interface PausedSession {
  /** The session's `application_name`, to find it in `pg_stat_activity`. */
  name: string;
  /** Whether the server has ended the session (its socket closed). */
  ended(): boolean;
  close(): void;
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");

export async function pausedSession(url: string, setup: string): Promise<PausedSession> {
  const target = new URL(url);
  const name = `paused-${randomUUID().slice(0, 8)}`;
  const socket = net.connect(Number(target.port || 5432), target.hostname);
  let ended = false;
  socket.on("close", () => {
    ended = true;
  });
  socket.on("error", () => {
    ended = true;
  });

  // Messages from the server, one `type` awaited at a time; an ErrorResponse rejects.
  let buffer = Buffer.alloc(0);
  let waiting: { types: string[]; resolve: () => void; reject: (error: Error) => void } | undefined;
  const seen: string[] = [];
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 5) {
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) break;
      const type = String.fromCharCode(buffer[0]);
      const body = buffer.subarray(5, length + 1);
      buffer = buffer.subarray(length + 1);
      if (type === "E") {
        const text = body.toString("utf8").replace(/\0/g, " ").trim();
        waiting?.reject(new Error(`the paused session's setup failed: ${text}`));
        waiting = undefined;
        continue;
      }
      if (type === "R" && body.readInt32BE(0) !== 0) {
        waiting?.reject(new Error("the paused session needs trust authentication"));
        waiting = undefined;
        continue;
      }
      seen.push(type);
      if (waiting?.types.every((t) => seen.includes(t))) {
        seen.length = 0;
        waiting.resolve();
        waiting = undefined;
      }
    }
  });
  const expect = (...types: string[]) =>
    new Promise<void>((resolve, reject) => {
      seen.length = 0;
      waiting = { types, resolve, reject };
    });

  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const parameters = Buffer.concat([
    cstring("user"),
    cstring(decodeURIComponent(target.username || "postgres")),
    cstring("database"),
    cstring(decodeURIComponent(target.pathname.slice(1) || "postgres")),
    cstring("application_name"),
    cstring(name),
    Buffer.from([0]),
  ]);
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + parameters.length, 0);
  startup.writeInt32BE(196608, 4); // protocol 3.0
  const ready = expect("Z");
  socket.write(Buffer.concat([startup, parameters]));
  await ready;

  const setupDone = expect("Z");
  socket.write(message("Q", cstring(`begin; ${setup}`)));
  await setupDone;

  // Parse and Describe with a Flush, no Sync: postgres-js's first round trip for a statement.
  const described = expect("1", "t");
  socket.write(
    Buffer.concat([
      message("P", Buffer.concat([cstring(""), cstring("select $1::int"), Buffer.from([0, 0])])),
      message("D", Buffer.concat([Buffer.from("S"), cstring("")])),
      message("H", Buffer.alloc(0)),
    ]),
  );
  await described;
  return {
    name,
    ended: () => ended,
    close: () => socket.destroy(),
  };
}
