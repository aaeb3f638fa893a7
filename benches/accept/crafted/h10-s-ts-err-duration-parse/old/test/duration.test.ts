import { parseDuration, retrySettings } from "../src/duration";

test("parses compound durations", () => {
  expect(parseDuration("1h30m")).toBe(5_400_000);
});

test("accepts a spaced duration from the helm chart", () => {
  expect(retrySettings({ RETRY_TIMEOUT: "1m 30s" }).timeoutMs).toBe(90_000);
});
