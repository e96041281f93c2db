/**
 * Spring Boot auto-configuration of the Spring AI adapters, active when this module, Spring AI and
 * {@code sqlagent-spring-boot-starter} are on the class path: a Spring AI chat model writes the agent's SQL,
 * an embedding model embeds its cases, and the agent is offered as Spring AI tools. It lives here rather
 * than in the starter because Spring AI 1.1's jars split packages and cannot be read from the starter's
 * named module.
 */
package dev.sqlagent.springai.boot;
