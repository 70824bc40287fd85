package io.fencelab.app.votes;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The room's votes on one lesson's questions: counts per choice from phones, a show of hands the
 * teacher keys in, and, per question, the random ids of the phones that voted (so a second vote is
 * refused). Nothing else is kept: no names, no addresses, not which phone chose what. {@link #reset()}
 * drops it all when the lesson ends.
 *
 * <p>One question is open at a time. Each question gets a random public id the first time it is
 * asked in a lesson, so a phone can only vote on the question it was shown; asked again (the teacher
 * went back), it keeps its id and its votes. Thread-safe: the vote server's threads vote while the
 * console reads.
 */
public final class VoteTally {

    /** What became of a vote. */
    public enum Outcome {
        /** Counted. */
        COUNTED,
        /** This phone has already voted on this question; the counts are unchanged. */
        ALREADY_VOTED,
        /** A question of this lesson, no longer open to votes. */
        CLOSED,
        /** No question of this lesson has this id (an old lesson's, or made up). */
        UNKNOWN_QUESTION,
        /** Not one of the question's choices. */
        NO_SUCH_CHOICE
    }

    /** The open question as a phone sees it: its id, the question and its choices (never the answer). */
    public record Ballot(String id, String ask, List<String> choices) {
        public Ballot {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(ask, "ask");
            choices = List.copyOf(choices);
        }
    }

    /**
     * One question's votes: the story step (0-based) that asks it, whether it is open, the phones'
     * votes and the hands per choice.
     */
    public record Counts(String id, int step, boolean open, List<Integer> phones, List<Integer> hands) {
        public Counts {
            phones = List.copyOf(phones);
            hands = List.copyOf(hands);
        }

        /** Phones and hands for choice {@code choice}. */
        public int total(int choice) {
            return phones.get(choice) + hands.get(choice);
        }

        /** Every vote counted, phones and hands. */
        public int total() {
            int sum = 0;
            for (int i = 0; i < phones.size(); i++) {
                sum += total(i);
            }
            return sum;
        }

        /** Votes from phones. */
        public int phoneVotes() {
            return phones.stream().mapToInt(Integer::intValue).sum();
        }

        public int choices() {
            return phones.size();
        }
    }

    private static final class Poll {
        final String id;
        final int step;
        final Ballot ballot;
        final int[] phones;
        final int[] hands;
        final Set<String> voted = new HashSet<>();

        Poll(String id, int step, String ask, List<String> choices) {
            this.id = id;
            this.step = step;
            this.ballot = new Ballot(id, ask, choices);
            this.phones = new int[choices.size()];
            this.hands = new int[choices.size()];
        }

        Counts counts(boolean open) {
            return new Counts(id, step, open, list(phones), list(hands));
        }

        private static List<Integer> list(int[] a) {
            return java.util.Arrays.stream(a).boxed().toList();
        }
    }

    private final Supplier<String> ids;
    private final Map<String, Poll> byId = new HashMap<>();
    private final Map<Integer, Poll> byStep = new HashMap<>();
    private Poll open;
    private Poll latest;
    private long version;

    /** A tally whose question ids are random (128 bits): a phone cannot guess one it was not shown. */
    public VoteTally() {
        this(randomIds(new SecureRandom()));
    }

    /** A tally whose question ids come from {@code ids} (each new; tests give predictable ones). */
    public VoteTally(Supplier<String> ids) {
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    static Supplier<String> randomIds(SecureRandom random) {
        return () -> {
            byte[] b = new byte[16];
            random.nextBytes(b);
            return HexFormat.of().formatHex(b);
        };
    }

    /**
     * Opens story step {@code step}'s question to votes (closing any other); asked before in this
     * lesson, it keeps its id and votes. Returns its id.
     */
    public synchronized String open(int step, String ask, List<String> choices) {
        Poll p = byStep.get(step);
        if (p == null || p.phones.length != choices.size()) {
            p = new Poll(ids.get(), step, ask, choices);
            byStep.put(step, p);
            byId.put(p.id, p);
        }
        if (open != p || latest != p) {
            open = p;
            latest = p;
            version++;
        }
        return p.id;
    }

    /** Closes the open question to votes; its counts stay, for the chart at the reveal. */
    public synchronized void close() {
        if (open != null) {
            open = null;
            version++;
        }
    }

    /** Counts {@code voter}'s vote for {@code choice} (0-based) on question {@code questionId}, at most once. */
    public synchronized Outcome vote(String questionId, String voter, int choice) {
        Objects.requireNonNull(voter, "voter");
        Poll p = questionId == null ? null : byId.get(questionId);
        if (p == null) {
            return Outcome.UNKNOWN_QUESTION;
        }
        if (p != open) {
            return Outcome.CLOSED;
        }
        if (choice < 0 || choice >= p.phones.length) {
            return Outcome.NO_SUCH_CHOICE;
        }
        if (!p.voted.add(voter)) {
            return Outcome.ALREADY_VOTED;
        }
        p.phones[choice]++;
        version++;
        return Outcome.COUNTED;
    }

    /** Whether {@code voter} has voted on question {@code questionId}. */
    public synchronized boolean hasVoted(String questionId, String voter) {
        Poll p = questionId == null ? null : byId.get(questionId);
        return p != null && p.voted.contains(voter);
    }

    /**
     * The show of hands for {@code choice} of the latest question (open or just closed): {@code count}
     * hands, replacing what was keyed in before. False when there is no such question or choice.
     */
    public synchronized boolean setHands(int choice, int count) {
        if (latest == null || choice < 0 || choice >= latest.hands.length || count < 0) {
            return false;
        }
        if (latest.hands[choice] != count) {
            latest.hands[choice] = count;
            version++;
        }
        return true;
    }

    /** The question open to votes as phones see it, or null. */
    public synchronized Ballot ballot() {
        return open == null ? null : open.ballot;
    }

    /** The latest question asked (open, or closed at its reveal), or null. */
    public synchronized Counts latest() {
        return latest == null ? null : latest.counts(latest == open);
    }

    /** Drops every question, vote and voter id (the lesson ended, or the workshop closed). */
    public synchronized void reset() {
        if (latest != null || !byId.isEmpty()) {
            version++;
        }
        byId.clear();
        byStep.clear();
        open = null;
        latest = null;
    }

    /** Goes up with every change, so a reader copies the counts only when they changed. */
    public synchronized long version() {
        return version;
    }
}
