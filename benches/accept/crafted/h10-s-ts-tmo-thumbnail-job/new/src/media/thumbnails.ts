// Client for the media service's asynchronous thumbnail jobs.

export type JobState = "queued" | "running" | "done" | "failed";

export interface Job {
  id: string;
  state: JobState;
  url?: string;
  error?: string;
}

export interface MediaApi {
  submit(sourceUrl: string, width: number): Promise<Job>;
  status(id: string): Promise<Job>;
}

export class JobFailed extends Error {}
export class JobTimeout extends Error {}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitForJob(
  api: MediaApi,
  id: string,
  { timeoutMs = 10_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  let delay = intervalMs;
  for (;;) {
    const job = await api.status(id);
    if (job.state === "done") return job;
    if (job.state === "failed") throw new JobFailed(job.error ?? "thumbnail failed");
    if (Date.now() + delay > deadline) throw new JobTimeout(`job ${id} still ${job.state}`);
    await sleep(delay);
    delay = Math.min(delay * 2, 2_000);
  }
}

export async function thumbnail(api: MediaApi, sourceUrl: string, width = 320): Promise<string> {
  if (width <= 0 || width > 4096) throw new RangeError(`bad width ${width}`);
  const job = await api.submit(sourceUrl, width);
  const done = job.state === "done" ? job : await waitForJob(api, job.id);
  if (!done.url) throw new JobFailed(`job ${job.id} finished without a url`);
  return done.url;
}

export function fakeApi(stepsToDone: number): MediaApi & { calls: number } {
  const api = {
    calls: 0,
    async submit(_src: string, _w: number): Promise<Job> {
      return { id: "j1", state: "queued" };
    },
    async status(id: string): Promise<Job> {
      api.calls += 1;
      return api.calls >= stepsToDone
        ? { id, state: "done", url: `https://cdn.example/${id}.jpg` }
        : { id, state: "running" };
    },
  };
  return api;
}
