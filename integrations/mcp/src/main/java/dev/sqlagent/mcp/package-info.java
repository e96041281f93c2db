/**
 * A governed database MCP server ({@link dev.sqlagent.mcp.SqlAgentMcpServer}) on the official MCP Java SDK,
 * over stdio and Streamable HTTP: the {@code query}, {@code ask} and {@code describe} tools and the schema
 * resource, a policy per connection, bearer tokens on HTTP, and the privilege audit at start.
 */
package dev.sqlagent.mcp;
