// Lists a capenv server's tools with the official MCP TypeScript SDK and calls every tool that
// takes no required argument (the SDK validates structuredContent against outputSchema and
// throws if it does not conform). Usage: node list_tools.mjs CAPENV_EXECUTABLE BUNDLE_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [executable, bundle] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: executable, args: ["serve", bundle, "--stdio"] });
const client = new Client({ name: "capenv-ts-check", version: "0" });
await client.connect(transport);
const { tools } = await client.listTools();
const called = [];
for (const tool of tools) {
  if ((tool.inputSchema.required ?? []).length === 0 && tool.annotations?.readOnlyHint) {
    const result = await client.callTool({ name: tool.name, arguments: {} });
    called.push({ name: tool.name, isError: result.isError ?? false, status: result.structuredContent?.status });
  }
}
console.log(JSON.stringify({
  tools: tools.map((t) => ({ name: t.name, title: t.title, annotations: t.annotations,
                             hasOutputSchema: Boolean(t.outputSchema) })),
  called,
}));
await client.close();
