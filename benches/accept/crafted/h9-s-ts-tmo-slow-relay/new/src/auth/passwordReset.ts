import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export type ResetRecord = {
  userId: string;
  tokenHash: string;
  expiresAt: number;
  usedAt: number | null;
};

export interface ResetRepo {
  findUserByEmail(email: string): Promise<{ id: string; email: string } | null>;
  recentRequests(userId: string, sinceMs: number): Promise<number>;
  save(rec: ResetRecord): Promise<void>;
  findByHash(tokenHash: string): Promise<ResetRecord | null>;
  markUsed(tokenHash: string, at: number): Promise<void>;
}

export interface Mailer {
  send(to: string, template: "password-reset", vars: Record<string, string>): Promise<void>;
}

const TOKEN_TTL_MS = 30 * 60_000;
const MAX_REQUESTS_PER_HOUR = 3;

export class ResetError extends Error {
  constructor(public readonly code: "rate_limited" | "invalid" | "expired" | "used") {
    super(code);
  }
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export class PasswordResetService {
  constructor(
    private readonly repo: ResetRepo,
    private readonly mailer: Mailer,
    private readonly now: () => number = Date.now,
  ) {}

  /** Always resolves for unknown emails too, so the endpoint cannot be used to probe accounts. */
  async request(email: string, baseUrl: string): Promise<void> {
    const user = await this.repo.findUserByEmail(email.trim().toLowerCase());
    if (!user) return;

    const recent = await this.repo.recentRequests(user.id, this.now() - 3_600_000);
    if (recent >= MAX_REQUESTS_PER_HOUR) throw new ResetError("rate_limited");

    const token = randomBytes(32).toString("base64url");
    await this.repo.save({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: this.now() + TOKEN_TTL_MS,
      usedAt: null,
    });
    await this.mailer.send(user.email, "password-reset", { link: `${baseUrl}/reset?token=${token}` });
  }

  async consume(token: string): Promise<string> {
    const hash = sha256(token);
    const rec = await this.repo.findByHash(hash);
    if (!rec || !timingSafeEqual(Buffer.from(rec.tokenHash), Buffer.from(hash))) {
      throw new ResetError("invalid");
    }
    if (rec.usedAt !== null) throw new ResetError("used");
    if (this.now() > rec.expiresAt) throw new ResetError("expired");
    await this.repo.markUsed(hash, this.now());
    return rec.userId;
  }
}
