package dev.sqlagent.llm.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.TokenUsage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Writes chat-completion requests and reads their responses with jackson-core's streaming API. Every
 * method is stateless; the factory is thread-safe.
 */
final class ChatJson {

    /** Longest provider error message kept in an exception. */
    static final int MAX_ERROR_CHARS = 300;

    private static final JsonFactory FACTORY = new JsonFactory();

    private ChatJson() {
    }

    /** One chat-completion answer, as read from the body. */
    record Completion(List<String> texts, TokenUsage usage, String model) {
    }

    /**
     * Writes the body of {@code POST /chat/completions}.
     *
     * @param model the model name
     * @param request the request
     * @param n how many choices to ask for (may be fewer than {@code request.n()} when filling up)
     * @return UTF-8 JSON
     */
    static byte[] writeRequest(String model, LlmRequest request, int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            g.writeArrayFieldStart("messages");
            for (ChatMessage m : request.messages()) {
                g.writeStartObject();
                g.writeStringField("role", m.role().name().toLowerCase(Locale.ROOT));
                g.writeStringField("content", m.content());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("temperature", request.temperature());
            g.writeNumberField("n", n);
            if (request.maxTokens() > 0) {
                g.writeNumberField("max_tokens", request.maxTokens());
            }
            if (request.jsonResponse()) {
                g.writeObjectFieldStart("response_format");
                g.writeStringField("type", "json_object");
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a request into memory", e);
        }
        return out.toByteArray();
    }

    /**
     * Reads a successful (2xx) response body.
     *
     * @param body the body bytes
     * @return the choices in index order, the usage and the model name
     * @throws LlmException of kind {@code MALFORMED_RESPONSE} when the body is not a chat completion
     *     or holds no choice
     */
    static Completion readResponse(byte[] body) {
        List<Choice> choices = new ArrayList<>();
        long promptTokens = 0;
        long completionTokens = 0;
        String model = "";
        String error = null;
        boolean sawChoices = false;
        try (JsonParser p = FACTORY.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw malformed("the body is not a JSON object: " + snippet(body));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "choices":
                        if (value == JsonToken.START_ARRAY) {
                            sawChoices = true;
                            while (p.nextToken() != JsonToken.END_ARRAY) {
                                Choice c = readChoice(p, choices.size());
                                if (c != null) {
                                    choices.add(c);
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                        break;
                    case "usage":
                        if (value == JsonToken.START_OBJECT) {
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String name = p.currentName();
                                JsonToken t = p.nextToken();
                                if (t == JsonToken.VALUE_NUMBER_INT && name.equals("prompt_tokens")) {
                                    promptTokens = Math.max(0, p.getLongValue());
                                } else if (t == JsonToken.VALUE_NUMBER_INT && name.equals("completion_tokens")) {
                                    completionTokens = Math.max(0, p.getLongValue());
                                } else {
                                    p.skipChildren();
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                        break;
                    case "model":
                        if (value == JsonToken.VALUE_STRING) {
                            model = p.getText();
                        }
                        break;
                    case "error":
                        error = readErrorValue(p, value);
                        break;
                    default:
                        p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof LlmException) {
                throw (LlmException) e;
            }
            throw new LlmException(LlmException.Kind.MALFORMED_RESPONSE,
                    "the response body is not valid JSON (" + shorten(e.getMessage()) + "): " + snippet(body), e);
        }
        if (choices.isEmpty()) {
            if (error != null) {
                throw malformed("the response holds an error and no choice: " + shorten(error));
            }
            throw malformed(sawChoices ? "the response holds an empty 'choices' array"
                    : "the response has no 'choices': " + snippet(body));
        }
        choices.sort(Comparator.comparingInt(Choice::index));
        List<String> texts = new ArrayList<>(choices.size());
        for (Choice c : choices) {
            texts.add(c.text());
        }
        return new Completion(texts, new TokenUsage(promptTokens, completionTokens), model);
    }

    private record Choice(int index, String text) {
    }

    /** Reads one element of {@code choices}; the parser is on its first token. */
    private static Choice readChoice(JsonParser p, int position) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        int index = position;
        String text = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("index") && value == JsonToken.VALUE_NUMBER_INT) {
                index = p.getIntValue();
            } else if (field.equals("message") && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals("content")) {
                        text = readContent(p, t);
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (field.equals("text") && value == JsonToken.VALUE_STRING && text == null) {
                text = p.getText(); // legacy completions shape, served by some local servers
            } else {
                p.skipChildren();
            }
        }
        // A null content (a refusal, a tool call) is reported as an empty text: there is no answer.
        return new Choice(index, text == null ? "" : text);
    }

    /** Content is a string, null, or an array of parts {@code {"type":"text","text":"..."}}. */
    private static String readContent(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (t == JsonToken.START_ARRAY) {
            StringBuilder sb = new StringBuilder();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (p.currentToken() == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        JsonToken v = p.nextToken();
                        if (name.equals("text") && v == JsonToken.VALUE_STRING) {
                            sb.append(p.getText());
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
            return sb.toString();
        }
        p.skipChildren();
        return null;
    }

    /**
     * Finds the provider's own words in an error body: {@code {"error":{"message":…}}},
     * {@code {"error":"…"}}, {@code {"message":…}} or {@code {"detail":…}}; otherwise the start of the
     * body as text.
     *
     * @param body the error body, may be empty
     * @return a one-line message of at most {@link #MAX_ERROR_CHARS} characters, empty for an empty body
     */
    static String errorMessage(byte[] body) {
        if (body == null || body.length == 0) {
            return "";
        }
        String found = null;
        try (JsonParser p = FACTORY.createParser(body)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME && found == null) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if (field.equals("error")) {
                        found = readErrorValue(p, value);
                    } else if ((field.equals("message") || field.equals("detail"))
                            && value == JsonToken.VALUE_STRING) {
                        found = p.getText();
                    } else if (field.equals("detail") && value == JsonToken.START_ARRAY) {
                        found = readDetailArray(p);
                    } else {
                        p.skipChildren();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            found = null;
        }
        if (found == null || found.isBlank()) {
            found = new String(body, StandardCharsets.UTF_8);
        }
        return shorten(found);
    }

    /** The value of an {@code error} field: a string or an object with {@code message}. */
    private static String readErrorValue(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        String message = null;
        String code = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (name.equals("message") && t == JsonToken.VALUE_STRING) {
                message = p.getText();
            } else if ((name.equals("code") || name.equals("type")) && t.isScalarValue() && code == null
                    && t != JsonToken.VALUE_NULL) {
                code = p.getText();
            } else {
                p.skipChildren();
            }
        }
        if (message == null) {
            return code;
        }
        return message;
    }

    /** FastAPI's 422 shape: {@code "detail": [{"msg": "…"}, …]}; takes the first message. */
    private static String readDetailArray(JsonParser p) throws IOException {
        String first = null;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals("msg") && t == JsonToken.VALUE_STRING && first == null) {
                        first = p.getText();
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return first;
    }

    /** Collapses whitespace and cuts to {@link #MAX_ERROR_CHARS} characters. */
    static String shorten(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX_ERROR_CHARS + 1));
        boolean space = false;
        for (int i = 0; i < text.length() && sb.length() <= MAX_ERROR_CHARS; i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                space = sb.length() > 0;
            } else {
                if (space) {
                    sb.append(' ');
                    space = false;
                }
                sb.append(c);
            }
        }
        if (sb.length() > MAX_ERROR_CHARS) {
            sb.setLength(MAX_ERROR_CHARS - 1);
            sb.append('…');
        }
        return sb.toString();
    }

    private static String snippet(byte[] body) {
        if (body.length == 0) {
            return "(empty body)";
        }
        int len = Math.min(body.length, MAX_ERROR_CHARS * 4);
        return '"' + shorten(new String(body, 0, len, StandardCharsets.UTF_8)) + '"';
    }

    private static LlmException malformed(String message) {
        return new LlmException(LlmException.Kind.MALFORMED_RESPONSE, message);
    }
}
