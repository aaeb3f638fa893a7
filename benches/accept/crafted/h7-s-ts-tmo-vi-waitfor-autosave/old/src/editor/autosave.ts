export interface DraftStore {
  save(id: string, content: string, version: number): Promise<{ version: number }>;
}

export type AutosaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

export interface AutosaveOptions {
  debounceMs?: number;
  maxWaitMs?: number;
  onStateChange?: (state: AutosaveState) => void;
}

export class Autosave {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt: number | null = null;
  private latest: string | null = null;
  private version = 0;
  private inFlight: Promise<void> | null = null;
  state: AutosaveState = 'idle';

  constructor(
    private readonly id: string,
    private readonly store: DraftStore,
    private readonly options: AutosaveOptions = {},
  ) {}

  private setState(state: AutosaveState): void {
    this.state = state;
    this.options.onStateChange?.(state);
  }

  change(content: string): void {
    const { debounceMs = 500, maxWaitMs = 5000 } = this.options;
    this.latest = content;
    const now = Date.now();
    this.firstPendingAt ??= now;
    this.setState('pending');
    if (this.timer) clearTimeout(this.timer);
    const waited = now - this.firstPendingAt;
    const delay = waited >= maxWaitMs ? 0 : Math.min(debounceMs, maxWaitMs - waited);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.inFlight) await this.inFlight;
    if (this.latest === null) return;
    const content = this.latest;
    this.latest = null;
    this.firstPendingAt = null;
    this.setState('saving');
    this.inFlight = this.store
      .save(this.id, content, this.version)
      .then(({ version }) => {
        this.version = version;
        this.setState(this.latest === null ? 'saved' : 'pending');
      })
      .catch(() => {
        this.latest ??= content;
        this.setState('error');
      })
      .finally(() => {
        this.inFlight = null;
      });
    await this.inFlight;
  }
}
