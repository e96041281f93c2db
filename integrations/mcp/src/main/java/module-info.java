/**
 * A governed database MCP server ({@link dev.sqlagent.mcp.SqlAgentMcpServer}) on the official MCP Java SDK,
 * over stdio and Streamable HTTP (Jetty 12).
 */
@SuppressWarnings({"requires-automatic"})
module dev.sqlagent.mcp {
    requires transitive dev.sqlagent.core;
    // The SDK names its automatic module in its manifest (Automatic-Module-Name), so the name is stable; no SDK
    // type is in this module's API. Its JSON mapper (Jackson 3) is found through the SDK's service loader.
    requires io.modelcontextprotocol.sdk.mcp.core;
    requires jakarta.servlet;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.ee10.servlet;
    requires org.eclipse.jetty.util;
    requires com.github.benmanes.caffeine;
    requires org.slf4j;

    exports dev.sqlagent.mcp;
}
