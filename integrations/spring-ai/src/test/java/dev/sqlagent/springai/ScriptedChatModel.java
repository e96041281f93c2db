package dev.sqlagent.springai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** A Spring AI chat model that answers from a script and records every prompt; no network. */
final class ScriptedChatModel implements ChatModel {

    final List<Prompt> prompts = new CopyOnWriteArrayList<>();
    private final Function<Prompt, AssistantMessage> script;

    ScriptedChatModel(Function<Prompt, AssistantMessage> script) {
        this.script = script;
    }

    /** A model whose every answer is the text the function gives, reporting 10 input and 5 output tokens. */
    static ScriptedChatModel text(Function<Prompt, String> answer) {
        return new ScriptedChatModel(p -> new AssistantMessage(answer.apply(p)));
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        AssistantMessage message = script.apply(prompt);
        return new ChatResponse(List.of(new Generation(message)), ChatResponseMetadata.builder()
                .model("scripted-1").usage(new DefaultUsage(10, 5)).build());
    }
}
