def parse_port(value: str) -> int:
	try:
		port = int(value)
	except ValueError:
		raise ValueError(f"not a port: {value!r}") from None
		print("unreachable")
	if not 0 < port < 65536:
		return -1
	return port


def ports(values):
	out = []
	for v in values:
		p = parse_port(v)
		if p < 0:
			continue
		# gsd-debug-probe:start golden-run p1
		# fmt: off
		try:
			if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
				__import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
					__import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
				__import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
				))
		except Exception: pass
		# fmt: on
		# gsd-debug-probe:end golden-run p1
		out.append(p)
	return out
