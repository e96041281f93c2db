// Drives `sqlagent.jar mcp` with the official TypeScript MCP SDK, over stdio and Streamable HTTP.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";

const jar = process.argv[2];
const db = process.argv[3];
const results = [];
function check(name, ok, detail) { results.push({ name, ok, detail }); console.log((ok ? "PASS " : "FAIL ") + name + (detail ? " — " + detail : "")); }

async function exercise(client, label) {
  const tools = await client.listTools();
  check(label + ": tools listed", tools.tools.length >= 2, tools.tools.map(t => t.name).join(","));
  const wide = await client.callTool({ name: "query", arguments: { sql: "SELECT id, a, b, c, d, e FROM wide" } });
  const size = JSON.stringify(wide).length;
  const sc = wide.structuredContent || {};
  check(label + ": a 500-row wide result arrives under 1 MiB", size < 1048576, size + " bytes");
  check(label + ": and is flagged truncated", sc.truncated === true, JSON.stringify(sc.truncation || null));
  let unknownErr = null;
  try {
    const r = await client.callTool({ name: "drop_tables", arguments: {} });
    unknownErr = r.isError ? JSON.stringify(r.content) : null;
  } catch (e) { unknownErr = String(e.message || e); }
  check(label + ": an unknown tool is an error naming it", unknownErr !== null && unknownErr.includes("drop_tables"), unknownErr);
  let badArgs = null;
  try {
    const r = await client.callTool({ name: "query", arguments: { sql: 42 } });
    badArgs = r.isError ? JSON.stringify(r.content) : null;
  } catch (e) { badArgs = String(e.message || e); }
  check(label + ": a non-string sql is an error", badArgs !== null, badArgs);
  const copy = await client.callTool({ name: "query", arguments: { sql: "COPY (SELECT id FROM wide) TO '/tmp/out.csv'" } });
  check(label + ": COPY is refused as a policy violation", copy.isError === true && /NOT_A_QUERY|not a query|policy/i.test(JSON.stringify(copy)), JSON.stringify(copy.content).slice(0, 200));
  const after = await client.callTool({ name: "query", arguments: { sql: "SELECT count(*) AS n FROM wide" } });
  check(label + ": the next call answers", !after.isError && JSON.stringify(after).includes("500"), JSON.stringify(after.structuredContent || after.content).slice(0, 120));
}

const stdio = new StdioClientTransport({ command: "java", args: ["-jar", jar, "mcp", "--jdbc-url", "jdbc:sqlite:" + db, "--allow-tables", "wide"], stderr: "ignore" });
const c1 = new Client({ name: "sdk-check", version: "1.0.0" });
await c1.connect(stdio);
await exercise(c1, "stdio");
await c1.close();

const port = 18000 + Math.floor(Math.random() * 1000);
process.env.SQLAGENT_MCP_TOKEN = "sdk-check-token-0123456789";
const server = spawn("java", ["-jar", jar, "mcp", "--http", "--port", String(port), "--token-env", "SQLAGENT_MCP_TOKEN", "--jdbc-url", "jdbc:sqlite:" + db, "--allow-tables", "wide"], { stdio: ["pipe", "ignore", "pipe"], env: process.env });
await new Promise((resolve, reject) => {
  let err = "";
  const t = setTimeout(() => reject(new Error("no listening line: " + err)), 30000);
  server.stderr.on("data", d => { err += d; if (err.includes("listening")) { clearTimeout(t); resolve(); } });
});
const http = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: "Bearer sdk-check-token-0123456789" } } });
const c2 = new Client({ name: "sdk-check", version: "1.0.0" });
await c2.connect(http);
await exercise(c2, "http");
await c2.close();
server.kill();
const failed = results.filter(r => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
