/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.trino.plugin.paimon.benchmark;

import io.trino.plugin.paimon.testing.PaimonQueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.google.common.base.Preconditions.checkState;
import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;

/**
 * A dashboard's star join (issue 14): a fact table of N rows partitioned by day over D days (4 buckets per
 * partition, two sorted runs: the second updates every seventh row), joined with a filtered dimension, through an
 * in-process Trino 476, or through real servers of the releases in {@code --trino-versions=476,483} side by side over
 * the same tables ({@link StarJoinEngine}), with dynamic filtering on (the default: split planning waits up to
 * {@code dynamic_filtering_wait_timeout}) and off ({@code enable_dynamic_filtering = false}), the two interleaved
 * so that noise falls on both alike. Two joins:
 * <ul>
 * <li>by day: a calendar with two holidays, so the dynamic filter on the partition column leaves 2 of D partitions;</li>
 * <li>by key: a customer dimension whose ten VIPs have adjacent ids, so the dynamic filter on the primary key prunes
 * files and pages by key range, never values before the merge.</li>
 * </ul>
 * Reports per join and mode: median elapsed time, splits, data files opened, bytes read and rows read by the scans,
 * from the queries' final statistics; both modes must return the same rows. Flags in {@code -Dbenchmark.args}:
 * {@code --rows=N} (default 2,000,000), {@code --days=D} (30), {@code --iterations=I} (5), {@code --warmups=W} (1),
 * {@code --trino-versions=476,483} (servers instead of the in-process Trino; every run goes to each release in turn).
 */
public final class BenchmarkStarJoin
{
    private static final String DATABASE = "star";

    private static final String BY_DAY = """
            SELECT count(*), sum(s.amount), sum(s.quantity)
            FROM sales s JOIN calendar c ON s.dt = c.dt
            WHERE c.holiday""";
    private static final String BY_KEY = """
            SELECT count(*), sum(s.amount), sum(s.quantity)
            FROM sales s JOIN customers c ON s.id = c.id
            WHERE c.vip""";

    private BenchmarkStarJoin() {}

    // servers: the releases to run on real servers; none: the in-process Trino
    record Settings(int rows, int days, int iterations, int warmups, List<String> servers)
    {
        static Settings parse(String[] args)
        {
            TrinoReleases releases = TrinoReleases.parse(args, "");
            IntegerFlags flags = IntegerFlags.parse(releases.otherArguments(), Map.of("rows", 2_000_000, "days", 30, "iterations", 5, "warmups", 1));
            int rows = flags.get("rows");
            checkState(rows % 1000 == 0 && rows <= 10_000_000, "--rows must be a multiple of 1,000, at most 10,000,000");
            return new Settings(rows, flags.get("days"), flags.get("iterations"), flags.get("warmups"), releases.versions());
        }
    }

    /** One join in one mode: the median elapsed time and what its scans read (means over the measured runs). */
    record Figures(String join, String mode, double medianMillis, double minMillis, double maxMillis, double splits, double files, double bytes, double rowsRead) {}

    public static void main(String[] args)
            throws Exception
    {
        Settings settings = Settings.parse(args);
        Path root = Files.createTempDirectory("paimon-star-join-benchmark");
        List<StarJoinEngine> engines = new ArrayList<>();
        try {
            Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY));
            if (settings.servers().isEmpty()) {
                engines.add(StarJoinEngine.inProcess(root, DATABASE));
            }
            else {
                for (String version : settings.servers()) {
                    engines.add(StarJoinEngine.server(Path.of("..").toAbsolutePath().normalize(), root, version));
                }
            }
            String loadAtStart = LoadAverage.now();
            long start = System.nanoTime();
            writeTables(engines.getFirst(), settings);
            for (StarJoinEngine engine : engines) {
                engine.execute("USE paimon." + DATABASE);
            }
            System.out.println("wrote the tables in %,d s".formatted((System.nanoTime() - start) / 1_000_000_000));

            Map<String, List<Figures>> figures = new LinkedHashMap<>();
            engines.forEach(engine -> figures.put(engine.name(), new ArrayList<>()));
            measure(engines, settings, "by day (2 holidays of %d days)".formatted(settings.days()), BY_DAY, figures);
            measure(engines, settings, "by key (10 VIPs, adjacent ids)", BY_KEY, figures);
            String report = report(settings, figures, loadAtStart, LoadAverage.now());
            System.out.println("\n" + report);
            Path output = Files.createDirectories(Path.of("target", "benchmark")).resolve("star-join.md");
            Files.writeString(output, report);
            System.out.println("report: " + output.toAbsolutePath());
        }
        finally {
            for (StarJoinEngine engine : engines) {
                engine.close();
            }
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static void writeTables(StarJoinEngine engine, Settings settings)
            throws Exception
    {
        engine.execute("CREATE SCHEMA paimon." + DATABASE);
        engine.execute("USE paimon." + DATABASE);
        engine.execute("""
                CREATE TABLE sales (dt date, id bigint, customer bigint, amount decimal(12, 2), quantity integer, note varchar)
                WITH (primary_key = ARRAY['dt', 'id'], partitioned_by = ARRAY['dt'], bucket = 4)""");
        // Trino's sequence() stops at 10,000 entries: two crossed give the ids
        engine.execute("""
                INSERT INTO sales
                SELECT date_add('day', id %% %1$d, DATE '2026-11-01'), id, id %% 1000, CAST(id %% 997 AS decimal(12, 2)) / 10, CAST(id %% 13 AS integer), 'sale ' || CAST(id AS varchar)
                FROM (SELECT high * 1000 + low AS id FROM unnest(sequence(0, %2$d)) a(high) CROSS JOIN unnest(sequence(0, 999)) b(low))"""
                .formatted(settings.days(), settings.rows() / 1000 - 1));
        // a second sorted run in every bucket: the merge runs at read time (every seventh id: 7 shares no factor
        // with the day count, so every partition gets updates)
        engine.execute("INSERT INTO sales SELECT dt, id, customer, amount * 2, quantity + 1, note || ' updated' FROM sales WHERE id % 7 = 0");

        engine.execute("CREATE TABLE calendar (dt date, holiday boolean) WITH (primary_key = ARRAY['dt'], bucket = 1)");
        engine.execute("""
                INSERT INTO calendar
                SELECT date_add('day', day, DATE '2026-11-01'), day IN (3, 17) FROM unnest(sequence(0, %d)) t(day)""".formatted(settings.days() - 1));

        engine.execute("CREATE TABLE customers (id bigint, vip boolean) WITH (primary_key = ARRAY['id'], bucket = 1)");
        // a thousand customers spread over the ids; the VIPs are ten adjacent ids in the middle
        long middle = settings.rows() / 2;
        engine.execute("""
                INSERT INTO customers
                SELECT CASE WHEN k < 10 THEN %1$d + k ELSE k * %2$d END, k < 10 FROM unnest(sequence(0, 999)) t(k)"""
                .formatted(middle, settings.rows() / 1000));
    }

    private static void measure(List<StarJoinEngine> engines, Settings settings, String join, String sql, Map<String, List<Figures>> figures)
            throws Exception
    {
        Map<String, List<Long>> nanosOn = new LinkedHashMap<>();
        Map<String, List<Long>> nanosOff = new LinkedHashMap<>();
        Map<String, double[]> sumsOn = new LinkedHashMap<>();
        Map<String, double[]> sumsOff = new LinkedHashMap<>();
        for (StarJoinEngine engine : engines) {
            nanosOn.put(engine.name(), new ArrayList<>());
            nanosOff.put(engine.name(), new ArrayList<>());
            sumsOn.put(engine.name(), new double[4]);
            sumsOff.put(engine.name(), new double[4]);
        }
        List<List<Object>> expected = null;
        for (int iteration = -settings.warmups(); iteration < settings.iterations(); iteration++) {
            // alternate which mode (and which release) goes first, so that neither always runs on a warmer cache
            boolean onFirst = iteration % 2 == 0;
            for (boolean dynamicFiltering : onFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                for (int turn = 0; turn < engines.size(); turn++) {
                    StarJoinEngine engine = engines.get((turn + Math.floorMod(iteration, engines.size())) % engines.size());
                    StarJoinEngine.Run run = engine.run(dynamicFiltering, sql);
                    if (expected == null) {
                        expected = run.rows();
                        checkState(((Number) expected.getFirst().getFirst()).longValue() > 0, "%s: the join returned no row", join);
                    }
                    checkState(run.rows().equals(expected), "%s: %s returned %s, not %s", join, engine.name(), run.rows(), expected);
                    if (iteration < 0) {
                        continue;
                    }
                    (dynamicFiltering ? nanosOn : nanosOff).get(engine.name()).add(run.elapsedNanos());
                    double[] sums = (dynamicFiltering ? sumsOn : sumsOff).get(engine.name());
                    sums[0] += run.splits();
                    sums[1] += run.filesOpened();
                    sums[2] += run.physicalInputBytes();
                    sums[3] += run.physicalInputRows();
                }
            }
        }
        System.out.println("%s: %s".formatted(join, expected));
        for (StarJoinEngine engine : engines) {
            figures.get(engine.name()).add(figures(join, "on", nanosOn.get(engine.name()), sumsOn.get(engine.name())));
            figures.get(engine.name()).add(figures(join, "off", nanosOff.get(engine.name()), sumsOff.get(engine.name())));
        }
    }

    private static Figures figures(String join, String mode, List<Long> nanos, double[] sums)
    {
        Timing timing = Timing.of(nanos);
        int count = nanos.size();
        return new Figures(join, mode, timing.medianMillis(), timing.minMillis(), timing.maxMillis(), sums[0] / count, sums[1] / count, sums[2] / count, sums[3] / count);
    }

    private static String report(Settings settings, Map<String, List<Figures>> figuresByEngine, String loadAtStart, String loadAtEnd)
    {
        StringBuilder report = new StringBuilder();
        report.append("## Star join: %,d-row fact table, %d daily partitions × 4 buckets, two sorted runs; dynamic filtering on and off, %d warm-up + %d measured runs each, interleaved%n%n"
                .formatted(settings.rows(), settings.days(), settings.warmups(), settings.iterations()));
        report.append("| Trino | join | dynamic filtering | median | min..max | splits | files opened | bytes read | rows read |\n");
        report.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        figuresByEngine.forEach((engine, figures) -> {
            for (Figures figure : figures) {
                report.append("| %s | %s | %s | %,.0f ms | %,.0f..%,.0f ms | %,.1f | %,.1f | %,.0f | %,.0f |%n".formatted(
                        engine, figure.join(), figure.mode(), figure.medianMillis(), figure.minMillis(), figure.maxMillis(), figure.splits(), figure.files(), figure.bytes(), figure.rowsRead()));
            }
        });
        report.append("\n| Trino | join | time on ÷ off | bytes on ÷ off |\n| --- | --- | --- | --- |\n");
        figuresByEngine.forEach((engine, figures) -> {
            for (int i = 0; i + 1 < figures.size(); i += 2) {
                Figures figureOn = figures.get(i);
                Figures figureOff = figures.get(i + 1);
                report.append("| %s | %s | %.2f | %.3f |%n".formatted(engine, figureOn.join(), figureOn.medianMillis() / figureOff.medianMillis(), figureOn.bytes() / figureOff.bytes()));
            }
        });
        List<String> engines = List.copyOf(figuresByEngine.keySet());
        if (engines.size() > 1) {
            String first = engines.getFirst();
            report.append("\n| join | dynamic filtering |");
            engines.subList(1, engines.size()).forEach(engine -> report.append(" %s ÷ %s (time) | %s ÷ %s (bytes) |".formatted(engine, first, engine, first)));
            report.append("\n| --- | --- |").append(" --- | --- |".repeat(engines.size() - 1)).append('\n');
            List<Figures> base = figuresByEngine.get(first);
            for (int i = 0; i < base.size(); i++) {
                report.append("| %s | %s |".formatted(base.get(i).join(), base.get(i).mode()));
                for (String engine : engines.subList(1, engines.size())) {
                    Figures other = figuresByEngine.get(engine).get(i);
                    report.append(" %.2f | %.3f |".formatted(other.medianMillis() / base.get(i).medianMillis(), other.bytes() / base.get(i).bytes()));
                }
                report.append('\n');
            }
        }
        report.append("%nEvery mode and release returned the same rows in every run. Load average (1, 5, 15 min) at start: %s; at end: %s; %d processors%n"
                .formatted(loadAtStart, loadAtEnd, Runtime.getRuntime().availableProcessors()));
        return report.toString();
    }
}
