import type { HttpClient } from './http';

// gsd-debug-probe:start golden-run p1
// prettier-ignore
try {
  const gsd$p: any = (globalThis as any).process, gsd$e = gsd$p?.env.GSD_DEBUG_PROBE_RUNTIME;
  const gsd$rt: any = !gsd$e ? (globalThis as any)[Symbol.for("GSDDBG1_rt1")]
    : gsd$p.getBuiltinModule ? gsd$p.getBuiltinModule("module").createRequire("/")(gsd$e + ".cjs")
    : gsd$p.mainModule.require(gsd$e + ".cjs");
  if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
  ]);
} catch (e) {}
// gsd-debug-probe:end golden-run p1
interface User {
  id: number;
  name: string;
  email?: string;
}

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export class UserService {
  private cache = new Map<number, User>();

  constructor(private readonly http: HttpClient) {}

  async load(id: number): Promise<Result<User>> {
    const cached = this.cache.get(id);
    if (cached) {
      return { ok: true, value: cached };
    }
    const user = await this.http.get<User>(`/users/${id}`);
    this.cache.set(id, user);
    return { ok: true, value: user };
  }

  static parse(raw: string): User {
    const data = JSON.parse(raw) as User;
    return data;
  }
}
