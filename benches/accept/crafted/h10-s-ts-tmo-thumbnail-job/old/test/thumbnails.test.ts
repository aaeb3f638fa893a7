import { expect, test } from "vitest";
import { fakeApi, waitForJob } from "../src/media/thumbnails";

test("polls until the job is done", async () => {
  const api = fakeApi(6);
  const job = await waitForJob(api, "j1", { timeoutMs: 1_000, intervalMs: 50 });
  expect(job.url).toBe("https://cdn.example/j1.jpg");
  expect(api.calls).toBe(6);
});
