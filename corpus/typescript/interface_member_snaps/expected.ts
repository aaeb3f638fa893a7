import type { HttpClient } from './http';

// gsd-debug-probe:start golden-run p1
// prettier-ignore
try {
  let gsd$p: any = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f = gsd$m;
  if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
    gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && gsd$p
    .getBuiltinModule("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
  if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
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
