// Drives `probity mcp` with the official TypeScript SDK's client (@modelcontextprotocol/sdk,
// pinned in package.json): an independent implementation of the protocol checks ours
// (tests/mcp.rs `mcp_speaks_to_the_official_sdk_client`). The SDK negotiates its latest
// revision, validates every tools/call's structuredContent against the tool's outputSchema
// (as Claude Code's client does), and refuses a result that does not match.
// Usage: node mcp_sdk.mjs PROBITY_BIN DIR   (DIR: a git repository holding cart.py)
// Prints one JSON line: what the test asserts.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, dir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp"],
  cwd: dir,
  stderr: "ignore",
});
let negotiated = null;
// The client tells a transport the revision it negotiated (stdio keeps none of its own).
transport.setProtocolVersion = (v) => {
  negotiated = v;
};
const client = new Client({ name: "probity-tests", version: "0.0.0" });
await client.connect(transport);

const listed = await client.listTools();
const out = {
  protocolVersion: negotiated,
  server: client.getServerVersion(),
  tools: listed.tools.map((t) => t.name),
  withOutputSchema: listed.tools.filter((t) => t.outputSchema).length,
  calls: {},
};

async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  out.calls[name] = {
    isError: r.isError ?? false,
    status: r.structuredContent?.status ?? null,
    reason: r.structuredContent?.reason ?? null,
  };
  return r;
}

await call("session_init", { slug: "cart", policy: "adaptive" });
await call("place", {
  file: "cart.py",
  slug: "cart",
  probe: "p1",
  hypothesis: ["h1"],
  line: 3,
  capture: ["s=s"],
});
const run = await call("run", {
  slug: "cart",
  phase: "baseline",
  command: ["python3", "cart.py"],
});
out.verdict = run.structuredContent?.data?.run?.observations?.p1?.verdict ?? null;
await call("cleanup", { slug: "cart" });
await call("gate", {});
await call("compare", { slug: "cart", run_a: "run-1", run_b: "run-9" });
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
