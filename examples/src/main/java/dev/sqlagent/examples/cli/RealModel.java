package dev.sqlagent.examples.cli;

import dev.sqlagent.llm.LlmClient;

/** Chooses a real OpenAI-compatible model from options or the environment, if one is configured. */
final class RealModel {

    private RealModel() {
    }

    /**
     * @return the real model, or null when neither options nor environment name one
     * @throws IllegalArgumentException when a real model is half configured
     */
    static LlmClient choose(String baseUrl, String apiKey, String model) {
        String url = baseUrl != null ? baseUrl : System.getenv("SQLAGENT_LLM_BASE_URL");
        if (url == null || url.isBlank()) {
            return null;
        }
        throw new IllegalArgumentException("a real model needs the OpenAI-compatible client, not built yet");
    }
}
