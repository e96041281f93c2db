package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.FunctionClass;
import dev.sqlagent.guard.FunctionPolicy;
import org.junit.jupiter.api.Test;

/** The engine check decides the functions of a plan as the guard does, through the classified catalogs. */
class EngineFunctionDecisionTest {

    @Test
    void planFunctionsAreDecidedInTheCatalog() {
        FunctionPolicy standard = FunctionPolicy.standard();
        assertThat(EngineCheck.functionAllowed("upper", standard, Dialect.POSTGRESQL)).isTrue();
        assertThat(EngineCheck.functionAllowed("pg_catalog.upper", standard, Dialect.POSTGRESQL)).isTrue();
        assertThat(EngineCheck.functionAllowed("query_to_xml", standard, Dialect.POSTGRESQL)).isFalse();
        assertThat(EngineCheck.functionAllowed("pg_catalog.pg_sleep", standard, Dialect.POSTGRESQL)).isFalse();
        assertThat(EngineCheck.functionAllowed("no_such_function", standard, Dialect.POSTGRESQL))
                .as("a plan calling something the catalog does not know is refused").isFalse();
        assertThat(EngineCheck.functionAllowed("get_lock", FunctionPolicy.denying("md5"), Dialect.MARIADB)).isFalse();
        assertThat(EngineCheck.functionAllowed("file_write", FunctionPolicy.denying(), Dialect.H2)).isFalse();
    }

    @Test
    void engineInternalNamesStayMapped() {
        FunctionPolicy standard = FunctionPolicy.standard();
        assertThat(EngineCheck.functionAllowed("trigcond", standard, Dialect.MARIADB)).isTrue();
        assertThat(EngineCheck.functionAllowed("ucase", FunctionPolicy.allowOnly("upper"), Dialect.MARIADB)).isTrue();
        assertThat(EngineCheck.functionAllowed("like", FunctionPolicy.allowOnly("count"), Dialect.SQLITE)).isTrue();
    }

    @Test
    void aConfirmedUnsafeFunctionIsAllowedInThePlanToo() {
        FunctionPolicy p = FunctionPolicy.standard().allowUnsafe(FunctionClass.READS_SESSION, "current_setting");
        assertThat(EngineCheck.functionAllowed("current_setting", p, Dialect.POSTGRESQL)).isTrue();
        assertThat(EngineCheck.functionAllowed("version", p, Dialect.POSTGRESQL)).isFalse();
    }
}
