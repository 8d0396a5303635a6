import { describe, expect, it } from "vitest";
import { ConnectionGate, currentLane, holdingConnection, inLane, type Lane } from "./lanes";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Asks for a slot in `lane`; `granted` fills in when it comes. */
function request(gate: ConnectionGate, lane: Lane, order: string[], name: string) {
  const pending = inLane({ lane }, () => gate.acquire());
  return pending.then((release) => {
    order.push(name);
    return release;
  });
}

describe("ConnectionGate", () => {
  it("reads the lane of the work it runs under, interactive when unmarked", () => {
    expect(currentLane()).toBe("interactive");
    const holder = { lane: "background" as Lane };
    inLane(holder, () => {
      expect(currentLane()).toBe("background");
      holder.lane = "interactive";
      expect(currentLane()).toBe("interactive");
    });
  });

  it("gives a freed connection to a person before background work that asked first", async () => {
    const gate = new ConnectionGate(2, 2);
    const order: string[] = [];
    const a = await request(gate, "interactive", order, "a");
    const b = await request(gate, "interactive", order, "b");
    const background = request(gate, "background", order, "background");
    await tick();
    const person = request(gate, "interactive", order, "person");
    await tick();
    expect(order).toEqual(["a", "b"]);
    expect(gate.waiting).toBe(2);
    a();
    await person;
    expect(order).toEqual(["a", "b", "person"]);
    b();
    (await background)();
    expect(order).toEqual(["a", "b", "person", "background"]);
  });

  it("narrows background work to one connection while a person's work holds one, and widens after", async () => {
    const gate = new ConnectionGate(6, 3);
    const order: string[] = [];
    const person = await request(gate, "interactive", order, "person");
    const first = await request(gate, "background", order, "bg1");
    const second = request(gate, "background", order, "bg2");
    await tick();
    expect(order).toEqual(["person", "bg1"]);
    person();
    const releases = [first, await second, await request(gate, "background", order, "bg3")];
    expect(order).toEqual(["person", "bg1", "bg2", "bg3"]);
    for (const release of releases) release();
  });

  it("lets a transaction opened inside a granted one through, even in a narrowed lane", async () => {
    const gate = new ConnectionGate(2, 1);
    const person = await inLane({ lane: "interactive" }, () => gate.acquire());
    const outer = await inLane({ lane: "background" }, () => gate.acquire());
    // Without the bypass this would wait for the background slot `outer` holds, forever.
    const inner = await inLane({ lane: "background" }, () => holdingConnection(() => gate.acquire()));
    inner();
    outer();
    person();
    expect(gate.waiting).toBe(0);
  });

  it("gives a slot back once, however often it is released", async () => {
    const gate = new ConnectionGate(1, 1);
    const order: string[] = [];
    const first = await request(gate, "interactive", order, "first");
    const second = request(gate, "interactive", order, "second");
    const third = request(gate, "interactive", order, "third");
    first();
    first();
    await second;
    await tick();
    expect(order).toEqual(["first", "second"]);
    (await second)();
    (await third)();
  });
});
