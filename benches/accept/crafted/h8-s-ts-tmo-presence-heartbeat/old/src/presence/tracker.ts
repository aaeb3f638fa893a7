export type Status = "online" | "away" | "offline";

export interface PresenceOptions {
  heartbeatMs: number;
  awayAfterMs: number;
  offlineAfterMs: number;
  now?: () => number;
}

export interface Peer {
  id: string;
  lastSeen: number;
}

type Listener = (id: string, status: Status) => void;

export class PresenceTracker {
  private peers = new Map<string, Peer>();
  private statuses = new Map<string, Status>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listeners: Listener[] = [];
  private readonly now: () => number;

  constructor(private readonly options: PresenceOptions) {
    this.now = options.now ?? Date.now;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  seen(id: string): void {
    this.peers.set(id, { id, lastSeen: this.now() });
    this.update(id, "online");
  }

  statusOf(id: string): Status {
    return this.statuses.get(id) ?? "offline";
  }

  start(): void {
    const interval = this.options.heartbeatMs * 1000;
    const tick = () => {
      this.sweep();
      this.timer = setTimeout(tick, interval);
    };
    this.timer = setTimeout(tick, interval);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  sweep(): void {
    const now = this.now();
    for (const peer of this.peers.values()) {
      const idle = now - peer.lastSeen;
      const status: Status = idle >= this.options.offlineAfterMs ? "offline" : idle >= this.options.awayAfterMs ? "away" : "online";
      this.update(peer.id, status);
    }
  }

  private update(id: string, status: Status): void {
    if (this.statuses.get(id) === status) return;
    this.statuses.set(id, status);
    for (const listener of this.listeners) listener(id, status);
  }
}
