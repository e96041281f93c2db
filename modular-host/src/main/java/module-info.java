/**
 * A host application on the module path: it requires the library and the test kit, nothing else. The
 * JDBC drivers and the logging provider it uses are bound as services at run time.
 */
module dev.sqlagent.host {
    requires dev.sqlagent.core;
    requires dev.sqlagent.test;
    requires org.slf4j;
}
