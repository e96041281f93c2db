/**
 * The model SPI of sqlagent: {@link dev.sqlagent.llm.LlmClient} takes one chat request and gives one
 * response. It has no dependency; a host or an integration module implements it (the OpenAI-compatible
 * client is in {@code dev.sqlagent.openai}, a scripted model for tests in {@code dev.sqlagent.test}).
 */
module dev.sqlagent.spi.llm {
    exports dev.sqlagent.llm;
}
