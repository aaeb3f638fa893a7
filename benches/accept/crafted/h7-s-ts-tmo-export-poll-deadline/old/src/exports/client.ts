export type ExportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ExportJob {
  id: string;
  status: ExportStatus;
  downloadUrl?: string;
  error?: string;
}

export interface HttpClient {
  post<T>(path: string, body: unknown): Promise<T>;
  get<T>(path: string): Promise<T>;
}

export class ExportTimeoutError extends Error {
  constructor(public readonly jobId: string, public readonly waitedMs: number) {
    super(`export ${jobId} still not finished after ${Math.round(waitedMs / 1000)}s`);
    this.name = 'ExportTimeoutError';
  }
}

export class ExportFailedError extends Error {
  constructor(public readonly jobId: string, reason: string) {
    super(`export ${jobId} failed: ${reason}`);
    this.name = 'ExportFailedError';
  }
}

const POLL_DEADLINE_MS = 2 * 60 * 1000;
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function requestExport(
  http: HttpClient,
  report: string,
  params: Record<string, string>,
): Promise<ExportJob> {
  return http.post<ExportJob>('/v1/exports', { report, params, format: 'csv' });
}

export async function waitForExport(
  http: HttpClient,
  jobId: string,
  { deadlineMs = POLL_DEADLINE_MS, clock = Date.now } = {},
): Promise<string> {
  const started = clock();
  let delay = FIRST_POLL_MS;
  for (;;) {
    const job = await http.get<ExportJob>(`/v1/exports/${encodeURIComponent(jobId)}`);
    if (job.status === 'done') {
      if (!job.downloadUrl) throw new ExportFailedError(jobId, 'no download URL');
      return job.downloadUrl;
    }
    if (job.status === 'failed') {
      throw new ExportFailedError(jobId, job.error ?? 'unknown error');
    }
    const waited = clock() - started;
    if (waited + delay > deadlineMs) {
      throw new ExportTimeoutError(jobId, waited);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
}

export async function exportReport(
  http: HttpClient,
  report: string,
  params: Record<string, string> = {},
): Promise<string> {
  const job = await requestExport(http, report, params);
  return waitForExport(http, job.id);
}
