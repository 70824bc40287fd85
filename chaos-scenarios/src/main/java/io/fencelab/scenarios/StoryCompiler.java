package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioCompiler.STEP;
import static io.fencelab.scenarios.ValueReader.DurationRule.NOT_NEGATIVE;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A scenario file's teaching notes: title, summary and the story's steps, with their cues and questions. */
final class StoryCompiler {

    private final Problems problems;
    private final ValueReader read;

    StoryCompiler(Problems problems, ValueReader read) {
        this.problems = problems;
        this.read = read;
    }


    TeachingNotes notes(Fields top) {
        String title = top.requiredText("title", "title: The paused holder");
        String summary = top.requiredText("summary", "summary: A holder pauses past its lease …");
        List<StoryStep> story = new ArrayList<>();
        YamlNode storyNode = top.required("story", "story: [A acquires the lease with token 41.]");
        List<YamlNode> steps = storyNode == null ? null : read.list(storyNode, "story", "steps (texts or mappings)");
        if (steps != null) {
            if (steps.isEmpty()) {
                read.problem(storyNode, "story", "needs at least one step");
            }
            for (int i = 0; i < steps.size(); i++) {
                story.add(step(steps.get(i), "story[" + i + "]"));
            }
        }
        if (title == null || summary == null || story.contains(null)) {
            return null;
        }
        return new TeachingNotes(title, summary, story);
    }

    /** One story step: plain text, or a mapping with its cue and question (docs/WORKSHOP.md). */
    private StoryStep step(YamlNode node, String path) {
        int line = node.mark().line();
        if (!(node instanceof YamlNode.Mapping)) {
            String text = read.text(node, path);
            return text == null ? null : new StoryStep(text, Cue.WITH_PREVIOUS, null, "", line);
        }
        Fields f = read.fields(node, path, STEP);
        if (f == null) {
            return null;
        }
        String text = f.requiredText("text", "text: B acquires the lease and gets token 42.");
        Cue cue = cue(f);
        Question question = question(f);
        String notes = f.text("notes", "");
        boolean asked = !f.has("ask") || question != null;
        return text == null || cue == null || !asked ? null : new StoryStep(text, cue, question, notes, line);
    }

    private Cue cue(Fields f) {
        if (f.has("at") && f.has("on")) {
            read.problem(f.node("on"), f.path("on"), "a step is tied to a time (at) or to an event (on), not both");
            return null;
        }
        if (f.has("at")) {
            Duration at = f.duration("at", null, NOT_NEGATIVE);
            return at == null ? null : new Cue.At(at);
        }
        if (!f.has("on")) {
            return Cue.WITH_PREVIOUS;
        }
        String path = f.path("on");
        YamlNode node = f.node("on");
        if (!(node instanceof YamlNode.Mapping mapping)) {
            read.problem(node, path, "expected a mapping: {type: LeaseAcquired, holder: B}, got " + node.describe());
            return null;
        }
        YamlNode.Field typeField = mapping.fields().get("type");
        if (typeField == null) {
            read.problem(node, path, "missing required key type (an event type: "
                    + String.join(", ", Cue.eventTypes()) + ")");
            return null;
        }
        String type = read.name(typeField.value(), path + ".type");
        if (type == null) {
            return null;
        }
        Class<?> eventType = Cue.eventType(type).orElse(null);
        if (eventType == null) {
            String hint = Texts.suggestion(type, Cue.eventTypes());
            read.problem(typeField.value(), path + ".type", "unknown event type " + Texts.abbreviate(type)
                    + (hint == null ? "" : "; did you mean " + hint + "?")
                    + " (allowed: " + String.join(", ", Cue.eventTypes()) + ")");
            return null;
        }
        List<String> allowed = Cue.fieldsOf(eventType);
        Map<String, String> fields = new LinkedHashMap<>();
        boolean fine = true;
        for (YamlNode.Field field : mapping.fields().values()) {
            if (field.key().equals("type")) {
                continue;
            }
            String fieldPath = path + "." + Texts.abbreviate(field.key());
            if (!allowed.contains(field.key())) {
                String hint = Texts.suggestion(field.key(), allowed);
                problems.add(field.keyMark(), fieldPath, type + " has no field " + Texts.abbreviate(field.key())
                        + (hint == null ? "" : "; did you mean " + hint + "?")
                        + " (allowed: " + String.join(", ", allowed) + ")");
                fine = false;
                continue;
            }
            String value = read.name(field.value(), fieldPath);
            if (value == null) {
                fine = false;
            } else {
                fields.put(field.key(), value);
            }
        }
        return fine ? new Cue.On(type, fields) : null;
    }

    /** The step's question, or null: without {@code ask} (then the other keys are refused) or when it is wrong. */
    private Question question(Fields f) {
        List<String> parts = List.of("choices", "answer", "why");
        if (!f.has("ask")) {
            parts.stream().filter(f::has).forEach(k -> read.problem(f.node(k), f.path(k),
                    "belongs to a question: add ask (the question) or remove " + k));
            return null;
        }
        String ask = f.requiredText("ask", "ask: What will the row do with token 41?");
        String why = f.requiredText("why", "why: The row has already accepted 42.");
        List<YamlNode> choiceNodes = f.required("choices", "choices: [Accept it, Refuse it]") == null ? null
                : f.list("choices", "texts");
        List<String> choices = new ArrayList<>();
        if (choiceNodes != null) {
            for (int i = 0; i < choiceNodes.size(); i++) {
                choices.add(read.text(choiceNodes.get(i), f.path("choices") + "[" + i + "]"));
            }
            if (choiceNodes.size() < 2 || choiceNodes.size() > 6) {
                read.problem(f.node("choices"), f.path("choices"), "has " + choiceNodes.size()
                        + " choices; a question needs 2 to 6");
                choiceNodes = null;
            }
        }
        Long answer = f.required("answer", "answer: 2") == null ? null
                : f.integer("answer", 1, 1, choiceNodes == null ? 6 : choiceNodes.size(), false);
        if (ask == null || why == null || choiceNodes == null || choices.contains(null) || answer == null) {
            return null;
        }
        return new Question(ask, choices, (int) (answer - 1), why);
    }
}
