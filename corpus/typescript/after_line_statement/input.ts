import type { HttpClient } from './http';

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
