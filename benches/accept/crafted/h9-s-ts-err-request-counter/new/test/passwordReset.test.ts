import { beforeEach, describe, expect, it, vi } from "vitest";
import { PasswordResetService, ResetError, type ResetRecord, type ResetRepo } from "../src/auth/passwordReset";

function memoryRepo(): ResetRepo & { records: ResetRecord[] } {
  const records: ResetRecord[] = [];
  return {
    records,
    findUserByEmail: async (email) => (email === "ana@example.org" ? { id: "u1", email } : null),
    recentRequests: async (userId, since) =>
      records.filter((r) => r.userId === userId && r.expiresAt - 30 * 60_000 >= since).length,
    save: async (rec) => void records.push(rec),
    findByHash: async (h) => records.find((r) => r.tokenHash === h) ?? null,
    markUsed: async (h, at) => {
      const r = records.find((x) => x.tokenHash === h);
      if (r) r.usedAt = at;
    },
  };
}

let clock = 1_780_000_000_000;
let repo: ReturnType<typeof memoryRepo>;
const sent: string[] = [];
const mailer = { send: vi.fn(async (_to: string, _t: "password-reset", vars: Record<string, string>) => void sent.push(vars.link)) };

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("PasswordResetService", () => {
  beforeEach(() => {
    repo = memoryRepo();
    sent.length = 0;
    clock = 1_780_000_000_000;
  });

  it("mails a link that can be used once", async () => {
    const svc = new PasswordResetService(repo, mailer, () => clock);
    await svc.request(" Ana@Example.org ", "https://app.example.org");
    const token = tokenOf(sent[0]);
    await expect(svc.consume(token)).resolves.toBe("u1");
    clock += 10_000;
    await expect(svc.consume(token)).rejects.toEqual(new ResetError("used"));
  });

  it("unknown emails resolve silently", async () => {
    const svc = new PasswordResetService(repo, mailer, () => clock);
    await expect(svc.request("nobody@example.org", "https://app.example.org")).resolves.toBeUndefined();
    expect(sent).toHaveLength(0);
  });

  it("the fourth request in an hour is refused", async () => {
    const svc = new PasswordResetService(repo, mailer, () => clock);
    for (let i = 0; i < 3; i++) await svc.request("ana@example.org", "https://app.example.org");
    await expect(svc.request("ana@example.org", "https://app.example.org")).rejects.toMatchObject({
      code: "rate_limited",
    });
  });

  it("a garbage token is invalid", async () => {
    const svc = new PasswordResetService(repo, mailer, () => clock);
    await expect(svc.consume("not-a-token")).rejects.toMatchObject({ code: "invalid" });
  }, 1_000);
});
