# elbowroom as an MCP server: any agent that speaks MCP gets the tool get_headroom (each usage
# window's percent left, reset, burn rate, and a one-line advice). Read-only, from the cache.
#
# Claude Code, for every project (user scope):
claude mcp add --scope user elbowroom -- elbowroom mcp
#   and to let it call the tool without asking, in ~/.claude/settings.json:
#   { "permissions": { "allow": ["mcp__elbowroom__get_headroom"] } }
#
# Or one project's .mcp.json (or a file for claude --mcp-config):
# { "mcpServers": { "elbowroom": { "command": "elbowroom", "args": ["mcp"] } } }
#
# Codex, in ~/.codex/config.toml:
# [mcp_servers.elbowroom]
# command = "elbowroom"
# args = ["mcp"]
#
# Any other client (OpenCode, Cursor, Gemini CLI, …): a stdio server, command elbowroom, args ["mcp"].
