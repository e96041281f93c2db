package dev.sqlagent.mcp;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import javax.sql.DataSource;

/**
 * A child JVM for the stdio tests: an MCP server over its standard streams.
 *
 * <p>Arguments: {@code JDBC_URL USER PASSWORD TABLES [DENY_TABLE.COLUMN|-] [ROW_FILTER_TABLE.COLUMN=N|-]
 * [broad]}; {@code JDBC_URL} {@code company} is a fresh company database (H2 in memory) read as the analyst.
 * The model is a script that answers nothing: the stdio suites call query and describe.
 */
public final class StdioServerMain {

    private StdioServerMain() {
    }

    public static void main(String[] args) throws Exception {
        DataSource ds = "company".equals(args[0]) ? CompanyDatabase.create().analyst()
                : new UrlDataSource(args[0], args[1], args[2]);
        GuardPolicy.Builder p = GuardPolicy.builder().allowTables(args[3].split(","));
        if (args.length > 4 && !"-".equals(args[4])) {
            String[] tc = args[4].split("\\.");
            p.denyColumn(tc[0], tc[1]);
        }
        if (args.length > 5 && !"-".equals(args[5])) {
            String[] f = args[5].split("[.=]");
            p.rowFilter(f[0], f[1], Long.parseLong(f[2]));
        }
        boolean broad = args.length > 6 && "broad".equals(args[6]);
        try (SqlAgent agent = SqlAgent.builder().llm(ScriptedLlm.create()).dataSource(ds).policy(p.build()).build()) {
            SqlAgentMcpServer server = SqlAgentMcpServer.builder().agent(agent).askTool(false)
                    .allowBroadLogin(broad).build();
            server.serveStdio(System.in, System.out);
        }
        System.exit(0);
    }
}
