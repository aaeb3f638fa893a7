export function healthCheck(): { ok: boolean } {
  return { ok: true };
}
