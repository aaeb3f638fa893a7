import { PresenceTracker, Status } from "./tracker";

function waitFor(tracker: PresenceTracker, id: string, status: Status): Promise<void> {
  return new Promise((resolve) => {
    tracker.onChange((peer, s) => {
      if (peer === id && s === status) resolve();
    });
  });
}

describe("PresenceTracker", () => {
  it("marks a peer online when seen", () => {
    const tracker = new PresenceTracker({ heartbeatMs: 100, awayAfterMs: 1000, offlineAfterMs: 5000 });
    tracker.seen("ana");
    expect(tracker.statusOf("ana")).toBe("online");
  });

  it("reports a silent peer as away after the first heartbeats", async () => {
    const tracker = new PresenceTracker({ heartbeatMs: 50, awayAfterMs: 200, offlineAfterMs: 120000 });
    tracker.seen("ben");
    const away = waitFor(tracker, "ben", "away");
    tracker.start();
    await away;
    tracker.stop();
    expect(tracker.statusOf("ben")).toBe("away");
  }, 5000);

  it("unknown peers are offline", () => {
    const tracker = new PresenceTracker({ heartbeatMs: 100, awayAfterMs: 1000, offlineAfterMs: 5000 });
    expect(tracker.statusOf("nobody")).toBe("offline");
  });
});
