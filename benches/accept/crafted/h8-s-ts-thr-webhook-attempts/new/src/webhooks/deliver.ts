export interface Endpoint {
  url: string;
  secret: string;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  lastStatus?: number;
  error?: string;
}

export type Send = (url: string, body: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;
export type Sleep = (ms: number) => Promise<void>;

const MAX_ATTEMPTS = 10000;
const BASE_DELAY_MS = 500;

async function sign(secret: string, body: string): Promise<string> {
  const { createHmac } = await import("node:crypto");
  return createHmac("sha256", secret).update(body).digest("hex");
}

function isSuccess(response: { status: number; body: string }): boolean {
  return response.status >= 200 && response.status < 300;
}

function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export async function deliver(endpoint: Endpoint, event: object, send: Send, sleep: Sleep): Promise<DeliveryResult> {
  const body = JSON.stringify(event);
  const headers = {
    "content-type": "application/json",
    "x-signature": await sign(endpoint.secret, body),
  };
  let lastStatus: number | undefined;
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const response = await send(endpoint.url, body, headers);
      lastStatus = response.status;
      if (isSuccess(response)) {
        return { delivered: true, attempts: attempt, lastStatus };
      }
      if (!isRetryable(response.status) && response.status >= 300) {
        return { delivered: false, attempts: attempt, lastStatus, error: "rejected" };
      }
    } catch (err) {
      lastStatus = undefined;
    }
    if (attempt < MAX_ATTEMPTS) {
      await sleep(BASE_DELAY_MS * 2 ** (attempt - 1));
    }
  }
  return { delivered: false, attempts: MAX_ATTEMPTS, lastStatus, error: "exhausted" };
}
