export interface Message {
  to: string;
  subject: string;
}

export async function send(msg: Message, transport: (m: Message) => Promise<void>): Promise<boolean> {
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
  if (!msg.to.includes('@'))
    return false;
  const subject = msg.subject.trim();
  await transport({
    ...msg,
    subject: subject.length > 0 ? subject : '(no subject)',
  });
  return true;
}

export const isValid = (m: Message): boolean => m.to.includes('@');
