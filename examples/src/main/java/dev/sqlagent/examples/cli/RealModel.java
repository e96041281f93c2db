package dev.sqlagent.examples.cli;

import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.openai.OpenAiCompatibleClient;

/** Chooses a real OpenAI-compatible model from options or the environment, if one is configured. */
final class RealModel {

    private RealModel() {
    }

    /**
     * Options win over the environment ({@code SQLAGENT_LLM_BASE_URL}, {@code SQLAGENT_LLM_API_KEY},
     * {@code SQLAGENT_LLM_MODEL}, or the {@code OPENAI_*} ones).
     *
     * @return the real model, or null when neither options nor environment name a base URL or a key
     * @throws IllegalArgumentException when a real model is half configured, naming what is missing
     */
    static LlmClient choose(String baseUrl, String apiKey, String model) {
        boolean fromOptions = baseUrl != null || apiKey != null || model != null;
        if (!fromOptions) {
            boolean env = notBlank(System.getenv("SQLAGENT_LLM_BASE_URL")) || notBlank(System.getenv("OPENAI_BASE_URL"))
                    || notBlank(System.getenv("SQLAGENT_LLM_API_KEY")) || notBlank(System.getenv("OPENAI_API_KEY"));
            if (!env) {
                return null;
            }
            try {
                return OpenAiCompatibleClient.fromEnvironment();
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (model == null) {
            throw new IllegalArgumentException("--model is required with --base-url or --api-key");
        }
        OpenAiCompatibleClient.Builder b = OpenAiCompatibleClient.builder().model(model)
                .baseUrl(baseUrl != null ? baseUrl : OpenAiCompatibleClient.OPENAI_BASE_URL);
        if (apiKey != null) {
            b.apiKey(apiKey);
        }
        return b.build();
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
