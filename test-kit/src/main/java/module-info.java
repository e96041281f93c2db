/**
 * The test kit of sqlagent, for a host's tests: {@link dev.sqlagent.testkit.ScriptedLlm}, a model that
 * answers from a script, and {@link dev.sqlagent.testkit.CompanyDatabase}, the company test database in
 * an in-memory H2 instance, and {@link dev.sqlagent.testkit.ShopDatabase}, a smaller one.
 */
@SuppressWarnings("requires-automatic")
module dev.sqlagent.test {
    requires transitive dev.sqlagent.spi.llm;
    requires transitive java.sql;
    // H2 names its automatic module in its manifest (Automatic-Module-Name: com.h2database)
    requires com.h2database;
    // H2's JdbcDataSource, which CompanyDatabase uses, is a javax.naming.Referenceable
    requires java.naming;

    exports dev.sqlagent.testkit;
    // H2 reads the company database's script with RUNSCRIPT FROM 'classpath:...', through a class
    // loader: a resource in a named module's package is found that way only if the package is open.
    opens dev.sqlagent.testkit;
}
