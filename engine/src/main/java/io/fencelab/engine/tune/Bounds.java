package io.fencelab.engine.tune;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.metrics.Failover;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The closed-form bounds of a lease setting, from its profile's own rules as the worker acts them out
 * (docs/TUNING.md, ## Bounds, has the table per profile). With {@code grant} what a grant or a renewal
 * asks for ({@link LeaseProfile#grantTtl}), {@code r} how often the holder renews, {@code g} how long
 * after its last successful renewal it gives up on its own ({@link LeaseProfile#giveUpAfter}; none
 * when zero), {@code lockDelay} and {@code retry} a waiting candidate's longest wait
 * ({@link LeaseProfile#longestRetry}):
 *
 * <ul>
 *   <li><b>Failover after a crash</b> (or a lease lost in a pause, counted from the pause's start):
 *       the holder's last renewal landed no later than that, so its lease expires at most one
 *       {@code grant} after it; a lock-delay grants nothing for that long after; a waiting candidate
 *       asks again within {@code retry}: {@code grant + lockDelay + retry}.</li>
 *   <li><b>Failover after a step-down</b> (renew deadline, refused renewal): one on waking from a
 *       pause is counted from the pause's start and has the crash's bound; any other, counted from the
 *       step-down: the holder steps down no sooner than {@code g} after its last successful renewal
 *       (a holder woken past its deadline steps down before it renews), so its lease has at most
 *       {@code grant − g} left: {@code max(0, grant − g) + lockDelay + retry}; a refused renewal means
 *       the lease is already gone. When the profile releases on stepping down (client-go's
 *       {@code releaseOnCancel}) only the {@code retry} is left.</li>
 *   <li><b>Pauses</b>: a holder loses its lease in a pause when the lease expires during it, or wakes
 *       past its renew deadline and steps down; both are measured from its last successful renewal,
 *       which came less than {@code r} before the pause began. So every pause longer than
 *       {@code limit = min(grant, g)} is lost and every pause shorter than {@code limit − r} is
 *       survived (client-go: {@code min(leaseDuration, retryPeriod + renewDeadline)}, survived below
 *       {@code min(leaseDuration − retryPeriod, renewDeadline)}). Holders that never renew have no
 *       survived bound (NaN): a pause just before the lease runs out loses it.</li>
 * </ul>
 *
 * <p>The bounds model the lease rules only: no network delay, no dropped renewal, no outage of the
 * lease service, a candidate alive and awake. A run past a bound for one of those reasons is
 * explained by {@link #explain}; one past a bound for none of them is a bug in the bound or the
 * simulator.
 *
 * @param failoverSeconds         {@code grant + lockDelay + retry}: no failover after a crash may take longer
 * @param stepDownFailoverSeconds no failover after a step-down may take longer
 * @param survivedPauseSeconds    no shorter pause may cost the lease; NaN when holders do not renew
 * @param lostPauseSeconds        every longer pause of a holder costs its lease
 */
public record Bounds(double failoverSeconds, double stepDownFailoverSeconds, double survivedPauseSeconds,
                     double lostPauseSeconds) {

    /** The measured figures the bounds are compared with, as results-file columns, in this order. */
    public static final List<String> MEASURES = List.of("longestSurvivedPauseSeconds", "shortestLostPauseSeconds");

    /** The bounds a run can go past. */
    public enum Bound {
        FAILOVER("failover after a crash"),
        STEP_DOWN_FAILOVER("failover after a step-down"),
        SURVIVED_PAUSE("shortest pause that cost the lease"),
        LOST_PAUSE("longest pause survived");

        private final String words;

        Bound(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /**
     * What took a run past one bound: the bound, whether the bound models the reason (then it should
     * not have happened: a bug in the bound or the simulator) and what happened, in words from the events.
     */
    public record PastBound(Bound bound, boolean modelled, String why) {

        private static final String SEPARATOR = " | ";

        /** As one results-file cell: {@code FAILOVER:unmodelled:all 3 replicas down …}, joined by " | ". */
        public static String cell(List<PastBound> all) {
            List<String> parts = new ArrayList<>();
            for (PastBound p : all) {
                // The cell must hold no comma (CSV) nor the separators it is read back with.
                String words = p.why.replace(',', ';').replace('|', '/').replace('\n', ' ');
                parts.add(p.bound.name() + ":" + (p.modelled ? "modelled" : "unmodelled") + ":" + words);
            }
            return String.join(SEPARATOR, parts);
        }

        /** The list {@link #cell} wrote. */
        public static List<PastBound> parse(String cell) {
            List<PastBound> out = new ArrayList<>();
            if (cell.isBlank()) {
                return out;
            }
            for (String part : cell.split(" \\| ")) {
                String[] f = part.split(":", 3);
                if (f.length != 3) {
                    throw new IllegalArgumentException("not a past-bound entry: " + part);
                }
                out.add(new PastBound(Bound.valueOf(f[0]), f[1].equals("modelled"), f[2]));
            }
            return out;
        }
    }

    /** What happened in a window, from the events, and whether the bounds model all of it. */
    public record Explanation(boolean modelled, String words) {}

    /** The bounds of {@code spec}'s lease setting, for workers resting at most their longest {@code idleTime}. */
    public static Bounds of(RunSpec spec) {
        Duration idle = spec.workers().stream().map(WorkerSpec::idleTime).max(Duration::compareTo)
                .orElse(Duration.ZERO);
        return of(spec.lease(), idle);
    }

    /** The bounds of {@code profile} for candidates resting at most {@code idleTime}. */
    public static Bounds of(LeaseProfile profile, Duration idleTime) {
        double grant = seconds(profile.grantTtl());
        double renew = seconds(profile.renewEvery());
        double giveUp = seconds(profile.giveUpAfter());
        double retry = seconds(profile.longestRetry(idleTime));
        double failover = grant + seconds(profile.lockDelay()) + retry;
        double stepDown = profile.releasesOnStepDown() ? retry
                : Math.max(0, giveUp > 0 ? grant - giveUp : grant) + seconds(profile.lockDelay()) + retry;
        double limit = giveUp > 0 ? Math.min(grant, giveUp) : grant;
        double survived = renew > 0 && renew < limit ? limit - renew : Double.NaN;
        return new Bounds(failover, stepDown, survived, limit);
    }

    /** The bound of {@code which}. */
    public double seconds(Bound which) {
        return switch (which) {
            case FAILOVER -> failoverSeconds;
            case STEP_DOWN_FAILOVER -> stepDownFailoverSeconds;
            case SURVIVED_PAUSE -> survivedPauseSeconds;
            case LOST_PAUSE -> lostPauseSeconds;
        };
    }

    // ---- measuring ----------------------------------------------------------------------------------

    /** A pause that began while its holder held a lease, and whether it cost the lease. */
    private record Pause(String holder, String scope, long fromMicros, long toMicros, long lengthMicros, String cause,
                         boolean lost) {}

    /**
     * From a run's events: the longest pause a lease holder came through still holding its lease, and
     * the shortest pause that cost a holder its lease (NaN where there was none). A pause costs the
     * lease when the lease expires during it, or when the holder steps down as it wakes (its renew
     * deadline passed meanwhile). Only pauses that began while the holder held a lease count; a crash
     * or a release during one leaves it out.
     */
    public static Map<String, Double> measure(List<? extends Event> events) {
        double longestSurvived = Double.NaN;
        double shortestLost = Double.NaN;
        for (Pause p : pauses(events)) {
            double s = p.lengthMicros / 1e6;
            if (p.lost) {
                shortestLost = Double.isNaN(shortestLost) ? s : Math.min(shortestLost, s);
            } else {
                longestSurvived = Double.isNaN(longestSurvived) ? s : Math.max(longestSurvived, s);
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put(MEASURES.get(0), longestSurvived);
        out.put(MEASURES.get(1), shortestLost);
        return out;
    }

    private static List<Pause> pauses(List<? extends Event> events) {
        Map<String, String> holding = new HashMap<>(); // holder -> scope
        Map<String, Pause> open = new HashMap<>();
        Map<String, Pause> waking = new HashMap<>(); // ended, and the holder may still step down as it wakes
        List<Pause> out = new ArrayList<>();
        for (Event e : events) {
            // A holder steps down at the very instant it wakes, or not because of the pause.
            waking.values().removeIf(p -> {
                if (p.toMicros < e.atMicros()) {
                    out.add(p);
                    return true;
                }
                return false;
            });
            switch (e) {
                case Event.LeaseAcquired a -> holding.put(a.holder(), a.scope());
                case Event.LeaseReleased r -> {
                    holding.remove(r.holder());
                    open.remove(r.holder());
                    waking.remove(r.holder());
                }
                case Event.LeaseExpired x -> {
                    holding.remove(x.holder());
                    lose(x.holder(), open, waking, out);
                }
                case Event.BeliefEnded b -> {
                    holding.remove(b.holder());
                    if (gaveUp(b.cause()) && waking.containsKey(b.holder())) {
                        lose(b.holder(), open, waking, out);
                    } else {
                        // crashed or let go: a later expiry is not the pause's doing
                        open.remove(b.holder());
                        waking.remove(b.holder());
                    }
                }
                case Event.PauseStarted p -> {
                    String scope = holding.get(p.holder());
                    if (scope != null) {
                        open.put(p.holder(), new Pause(p.holder(), scope, p.atMicros(), p.atMicros() + p.durationMicros(),
                                p.durationMicros(), p.cause(), false));
                    }
                }
                case Event.PauseEnded p -> {
                    Pause ended = open.remove(p.holder());
                    if (ended != null) {
                        Pause at = new Pause(ended.holder, ended.scope, ended.fromMicros, p.atMicros(),
                                ended.lengthMicros, ended.cause, ended.lost);
                        if (at.lost) {
                            out.add(at);
                        } else {
                            waking.put(p.holder(), at);
                        }
                    }
                }
                default -> {
                }
            }
        }
        out.addAll(waking.values());
        out.sort(java.util.Comparator.comparingLong(Pause::fromMicros));
        return out;
    }

    /** Whether a holder that stops believing for this cause gave its lease up on its own, rather than crashing or releasing it. */
    private static boolean gaveUp(Cause cause) {
        if (cause == null) {
            return false; // an old log's words nobody knows
        }
        return switch (cause) {
            case RENEW_DEADLINE, RENEWAL_REFUSED, STALE_ANSWER, OWN_CLOCK -> true;
            case CRASHED, RELEASED, RELEASE_REFUSED, RELEASE_FAILED -> false;
        };
    }

    private static void lose(String holder, Map<String, Pause> open, Map<String, Pause> waking, List<Pause> out) {
        Pause p = open.get(holder);
        if (p != null) {
            open.put(holder, new Pause(p.holder, p.scope, p.fromMicros, p.toMicros, p.lengthMicros, p.cause, true));
        }
        Pause w = waking.remove(holder);
        if (w != null) {
            out.add(new Pause(w.holder, w.scope, w.fromMicros, w.toMicros, w.lengthMicros, w.cause, true));
        }
    }

    // ---- checking -----------------------------------------------------------------------------------

    /**
     * Every bound a run went past, each with what took it there, from the run's events and its tuning
     * figures (whose failover episodes give each failover's window and cause). Empty when the run kept
     * within every bound.
     */
    public List<PastBound> check(List<? extends Event> events, TuningFigures figures) {
        List<PastBound> out = new ArrayList<>();
        List<Failover> failovers = figures.episodes().failovers();
        if (failovers.isEmpty()) {
            // No episodes to say which failover it was (a log from before they were kept): only the
            // longest is known, so the whole run is searched for what the bound leaves out.
            Long max = figures.totals().failoverMaxMicros();
            if (max != null && max / 1e6 > failoverSeconds + SLACK) {
                long end = events.isEmpty() ? 0 : events.getLast().atMicros();
                Explanation why = events.stream().map(e -> e instanceof Event.LeaseAcquired a ? a.scope() : null)
                        .filter(java.util.Objects::nonNull).distinct().map(scope -> explain(events, scope, 0, end))
                        .filter(x -> !x.modelled()).findFirst()
                        .orElse(new Explanation(true, "nothing the bound leaves out happened in the run: the bound or "
                                + "the simulator is wrong; please report it"));
                out.add(new PastBound(Bound.FAILOVER, why.modelled(), "a failover of " + secs(max)
                        + " (which one is not known: the run kept no failover episodes); in the run: " + why.words()));
            }
        }
        for (Failover f : failovers) {
            if (f.toMicros() == null) {
                continue;
            }
            // A step-down on waking is counted from the pause's start, so it has a crash's bound.
            Bound which = f.cause() == Failover.Cause.STEP_DOWN && !beganWithAPause(events, f)
                    ? Bound.STEP_DOWN_FAILOVER : Bound.FAILOVER;
            if (f.micros() / 1e6 > seconds(which) + SLACK) {
                Explanation why = explain(events, f.scope(), f.fromMicros(), f.toMicros());
                out.add(new PastBound(which, why.modelled(), "a failover of " + secs(f.micros()) + " after "
                        + f.lostBy() + " " + (f.cause() == Failover.Cause.CRASH ? "crashed" : f.cause()
                        == Failover.Cause.STEP_DOWN ? "stepped down" : "lost the lease") + " at "
                        + secs(f.fromMicros()) + ": " + why.words()));
            }
        }
        for (Pause p : pauses(events)) {
            double s = p.lengthMicros / 1e6;
            Bound which = p.lost && !Double.isNaN(survivedPauseSeconds) && s < survivedPauseSeconds - SLACK
                    ? Bound.SURVIVED_PAUSE : !p.lost && s > lostPauseSeconds + SLACK ? Bound.LOST_PAUSE : null;
            if (which != null) {
                Explanation why = explain(events, p.scope, p.fromMicros, p.toMicros);
                out.add(new PastBound(which, why.modelled(), p.holder + (p.lost ? " lost its lease in a pause of "
                        : " kept its lease through a pause of ") + secs(p.lengthMicros) + " (" + p.cause + ") at "
                        + secs(p.fromMicros) + ": " + why.words()));
            }
        }
        return out;
    }

    /** Rounding between the events' microseconds and the bounds' seconds. */
    private static final double SLACK = 1e-6;

    /**
     * What happened to {@code scope} from {@code fromMicros} to {@code toMicros} that the bounds do not
     * model, read from the events: every replica down (crashed), no replica able to act (each crashed
     * or paused), the lease service unreachable (a database restart, failed lease requests), and
     * network faults (delays, jitter, dropped renewals, a slow lease service, clock skew). Pauses in the
     * window are named too, as context: the bounds model them. Modelled when none of the unmodelled
     * reasons is there.
     *
     * @param scope the scope whose replicas count (the holders seen acquiring or waiting for it)
     */
    public static Explanation explain(List<? extends Event> events, String scope, long fromMicros, long toMicros) {
        Set<String> replicas = replicasOf(events, scope);
        Set<String> down = new HashSet<>();
        Set<String> paused = new HashSet<>();
        Map<String, Long> faultsOn = new LinkedHashMap<>(); // "KIND on target" -> since
        long allDownSince = -1;
        long stuckSince = -1;
        long failingSince = -1;
        String failing = null;
        List<String> unmodelled = new ArrayList<>();
        List<String> context = new ArrayList<>();
        for (Event e : events) {
            long t = e.atMicros();
            if (t > toMicros) {
                break;
            }
            switch (e) {
                case Event.FaultInjected f when is(f.fault(), FaultKind.CRASH) -> down.add(worker(f.appliesTo()));
                case Event.FaultHealed f when is(f.fault(), FaultKind.CRASH) -> down.remove(worker(f.appliesTo()));
                case Event.FaultInjected f when !is(f.fault(), FaultKind.PAUSE) && !is(f.fault(), FaultKind.CONNECTION_KILL) ->
                        faultsOn.putIfAbsent(f.fault() + " on " + f.appliesTo(), t);
                case Event.FaultHealed f -> {
                    Long since = faultsOn.remove(f.fault() + " on " + f.appliesTo());
                    if (since != null && t >= fromMicros) {
                        unmodelled.add(fault(f.fault(), f.appliesTo(), Math.max(since, fromMicros), t));
                    }
                }
                case Event.PauseStarted p -> {
                    paused.add(worker(p.holder()));
                    if (t >= fromMicros && replicas.contains(worker(p.holder()))) {
                        context.add(p.holder() + " paused " + secs(p.durationMicros()) + " (" + p.cause() + ") at "
                                + secs(t));
                    }
                }
                case Event.PauseEnded p -> paused.remove(worker(p.holder()));
                case Event.OperationFailed o when !o.operation().equals("write") -> {
                    if (failingSince < 0) {
                        failingSince = t;
                        failing = o.reason();
                    }
                }
                case Event.LeaseAcquired a -> {
                    if (failingSince >= 0 && failingSince <= toMicros && t >= fromMicros) {
                        unmodelled.add(requestsFailing(failingSince, t, failing, fromMicros));
                    }
                    failingSince = -1;
                }
                default -> {
                }
            }
            boolean allDown = !replicas.isEmpty() && down.containsAll(replicas);
            boolean stuck = !allDown && !replicas.isEmpty() && replicas.stream()
                    .allMatch(r -> down.contains(r) || paused.contains(r));
            allDownSince = interval(allDown, allDownSince, t, fromMicros, unmodelled,
                    (a, b) -> "all " + replicas.size() + " replicas down from " + secs(a) + " to " + secs(b));
            stuckSince = interval(stuck, stuckSince, t, fromMicros, unmodelled,
                    (a, b) -> "no replica could act from " + secs(a) + " to " + secs(b) + " (each crashed or paused)");
        }
        interval(false, allDownSince, toMicros, fromMicros, unmodelled,
                (a, b) -> "all " + replicas.size() + " replicas down from " + secs(a) + " to " + secs(b));
        interval(false, stuckSince, toMicros, fromMicros, unmodelled,
                (a, b) -> "no replica could act from " + secs(a) + " to " + secs(b) + " (each crashed or paused)");
        faultsOn.forEach((what, since) -> {
            String[] kind = what.split(" on ", 2);
            unmodelled.add(fault(kind[0], kind[1], Math.max(since, fromMicros), toMicros));
        });
        if (failingSince >= 0) {
            unmodelled.add(requestsFailing(failingSince, toMicros, failing, fromMicros));
        }
        if (unmodelled.isEmpty()) {
            return new Explanation(true, "nothing the bound leaves out happened"
                    + (context.isEmpty() ? "" : " (" + capped(context, "pauses") + ")")
                    + ": the bound or the simulator is wrong; please report it");
        }
        // every replica down says most: first
        unmodelled.sort(java.util.Comparator.comparing((String w) -> !w.startsWith("all ")));
        return new Explanation(false, capped(unmodelled, "such spells")
                + (context.isEmpty() ? "" : "; " + capped(context, "pauses")));
    }

    /** The workers seen acquiring, waiting for or believing they hold {@code scope}: its replicas. */
    private static Set<String> replicasOf(List<? extends Event> events, String scope) {
        Set<String> replicas = new java.util.TreeSet<>();
        for (Event e : events) {
            String holder = switch (e) {
                case Event.LeaseAcquired a when a.scope().equals(scope) -> a.holder();
                case Event.LeaseBusy b when b.scope().equals(scope) -> b.holder();
                case Event.BeliefStarted b when b.scope().equals(scope) -> b.holder();
                default -> null;
            };
            if (holder != null) {
                replicas.add(worker(holder));
            }
        }
        return replicas;
    }

    /** At most a few items, so that a long window (a whole run) still reads as one line. */
    private static String capped(List<String> items, String noun) {
        int shown = 3;
        return items.size() <= shown + 1 ? String.join("; ", items)
                : String.join("; ", items.subList(0, shown)) + "; and " + (items.size() - shown) + " more " + noun;
    }

    /** Closes or opens a condition's interval at {@code t}; returns when it holds since, or -1. */
    private static long interval(boolean holds, long since, long t, long fromMicros, List<String> out,
                                 java.util.function.BiFunction<Long, Long, String> words) {
        if (holds) {
            return since < 0 ? t : since;
        }
        if (since >= 0 && t > fromMicros && t > since) {
            out.add(words.apply(Math.max(since, fromMicros), t));
        }
        return -1;
    }

    /** Whether a fault as an event names it ({@code FaultInjected.fault}) is of {@code kind}. */
    private static boolean is(String fault, FaultKind kind) {
        return kind.name().equals(fault);
    }

    private static String fault(String kind, String target, long from, long to) {
        String what = switch (kind) {
            case "DATABASE_RESTART" -> "the lease service was unreachable (database restart)";
            case "REQUEST_DELAY" -> "requests of " + target + " were delayed";
            case "REQUEST_JITTER" -> "requests of " + target + " were jittered";
            case "REPLY_DELAY" -> "replies to " + target + " were delayed";
            case "RENEWAL_LOSS" -> "renewals of " + target + " were dropped";
            case "SLOW_LEASE_SERVICE" -> "the lease service was slow for " + target;
            case "CLOCK_SKEW" -> "the clock of " + target + " was skewed";
            default -> kind + " on " + target;
        };
        return what + " from " + secs(from) + " to " + secs(to);
    }

    private static String requestsFailing(long since, long until, String reason, long fromMicros) {
        return "the lease service was unreachable from " + secs(Math.max(since, fromMicros)) + " to " + secs(until)
                + (reason == null ? "" : " (" + reason + ")");
    }

    /** The worker a holder name belongs to: {@code B} for {@code B#2}. */
    private static String worker(String holder) {
        int hash = holder.indexOf('#');
        return hash < 0 ? holder : holder.substring(0, hash);
    }

    private static String secs(long micros) {
        return String.format(java.util.Locale.ROOT, "%.1f s", micros / 1e6);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** Whether failover {@code f} starts where its old holder's pause did (it stepped down as it woke). */
    private static boolean beganWithAPause(List<? extends Event> events, Failover f) {
        for (Event e : events) {
            if (e.atMicros() > f.fromMicros() + 1_000_000) {
                return false;   // a live log's times may step back a little; none by a second
            }
            if (e instanceof Event.PauseStarted p && p.atMicros() == f.fromMicros() && p.holder().equals(f.lostBy())) {
                return true;
            }
        }
        return false;
    }
}
