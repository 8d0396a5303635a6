// Every call to a data source ends by a deadline: the server's own statement timeout stops a
// slow statement, and this stops what the server never answers (a port that speaks another
// protocol, a stalled handshake, a first byte that never comes) by destroying the connection.

/** A call to a data source ran past its deadline and was cut off. */
export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within ${ms} ms.`);
    this.name = "DeadlineError";
  }
}

/**
 * Runs `work` with a signal that aborts at the deadline; the call rejects then, whatever `work`
 * is still waiting for (its own, later rejection is dropped). `work` must tear down what it opened
 * when the signal aborts.
 */
export function withDeadline<T>(what: string, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new DeadlineError(what, ms));
      controller.abort();
    }, ms);
    work(controller.signal).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
