/**
 * Spring Boot 3 auto-configuration for sqlagent (artifact {@code sqlagent-spring-boot-starter}).
 *
 * <p>{@link dev.sqlagent.spring.SqlAgentAutoConfiguration} builds a {@link dev.sqlagent.SqlAgent} bean
 * from the application's data source and the {@code sqlagent.*} properties
 * ({@link dev.sqlagent.spring.SqlAgentProperties}); any part can be replaced by a bean of its own, and
 * {@link dev.sqlagent.spring.SqlAgentCustomizer} beans adjust the builder for what the properties do not
 * cover. With Actuator present, {@link dev.sqlagent.spring.SqlAgentHealthIndicator} reports whether the
 * agent's database answers.
 */
package dev.sqlagent.spring;
