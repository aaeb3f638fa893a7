import { useState } from 'react';

type Props = { initial: number; label: string };

export function Counter({ initial, label }: Props) {
  const [count, setCount] = useState<number>(initial);
  const increment = () => {
    setCount((c) => c + 1);
  };
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
  return (
    <button onClick={increment}>
      {label}: {count}
    </button>
  );
}
