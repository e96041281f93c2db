/**
 * Spring Boot auto-configuration of a {@link dev.sqlagent.SqlAgent}
 * ({@link dev.sqlagent.spring.SqlAgentAutoConfiguration}) from the application's data source and the
 * {@code sqlagent.*} properties, with a privilege audit at start-up, an Actuator health indicator when
 * Actuator is present, a Jackson module when jackson-databind is, and Micrometer meters when
 * {@code dev.sqlagent.micrometer} is.
 *
 * <p>Spring's modules are automatic modules named in their manifests ({@code spring.boot},
 * {@code spring.context}, ...). Actuator and the Micrometer binder are optional: required only at
 * compile time, as the auto-configuration looks for them at run time.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.sqlagent.spring.boot.starter {
    requires transitive dev.sqlagent.core;
    requires dev.sqlagent.openai;
    requires transitive spring.boot;
    requires transitive spring.boot.autoconfigure;
    requires transitive spring.context;
    requires transitive spring.beans;
    requires static transitive spring.boot.actuator;
    requires static dev.sqlagent.micrometer;
    requires static transitive com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports dev.sqlagent.spring;
    // Spring reflects into this package: it instantiates the auto-configuration and its package-private
    // nested configurations, calls their package-private bean methods and binds SqlAgentProperties. A
    // Spring Boot application usually runs Spring from the class path (the unnamed module), which a
    // qualified "opens ... to spring.core" would not reach, so the package is open to every module.
    opens dev.sqlagent.spring;
}
