// The guide "The MCP server for agents" (packages/docs/guides/12-agents-mcp.md) as a user copies from it:
// every host configuration is valid JSON that starts `videogen mcp` with variables the server reads, and
// its table names exactly the server's tools.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSession, videoTools } from '../src/index.js';

const guide = readFileSync(new URL('../../docs/guides/12-agents-mcp.md', import.meta.url), 'utf8');
const VARIABLES = ['VIDEO_API_KEY', 'VIDEO_API_BASE_URL', 'VIDEO_API_PLAN', 'VIDEO_API_PACING_URL', 'VIDEO_API_LOG'];

describe('the MCP guide', () => {
  const blocks = [...guide.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!));

  it('configures Claude Desktop, VS Code and Cursor to run videogen mcp with the variables it reads', () => {
    expect(blocks).toHaveLength(3);
    for (const config of blocks) {
      const servers = config.mcpServers ?? config.servers;
      const entry = servers.videogen;
      expect(entry.command).toBe('videogen');
      expect(entry.args).toEqual(['mcp']);
      for (const name of Object.keys(entry.env)) expect(VARIABLES).toContain(name);
      // The sandbox first.
      expect(entry.env.VIDEO_API_BASE_URL).toBe('http://127.0.0.1:4010/v1');
    }
  });

  it("lists exactly the server's tools", () => {
    const tools = videoTools(createSession({ clientOptions: { apiKey: 'unused' } })).map((t) => t.name);
    const rows = [...guide.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(rows.filter((r) => !r.startsWith('videogen'))).toEqual(tools);
  });
});
