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

import com.google.common.collect.ImmutableList;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.plugin.paimon.benchmark.ReadAmplificationTables.Shape;
import io.trino.plugin.paimon.read.PaimonPageSource;
import io.trino.plugin.paimon.read.PaimonSplit;
import io.trino.plugin.paimon.testing.PaimonJavaCatalog;
import io.trino.plugin.paimon.testing.PaimonQueryRunner;
import io.trino.plugin.paimon.testing.ScanStatistics;
import io.trino.spi.metrics.Metric;
import io.trino.spi.type.Type;
import io.trino.testing.QueryRunner;

import java.awt.Color;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.IntStream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.COMPACTED;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DATABASE;
import static io.trino.plugin.paimon.benchmark.ReadAmplificationTables.DELETION_VECTORS;
import static java.util.Objects.requireNonNull;

/**
 * How a merge read slows as sorted runs pile up (issue #6). Tables of N rows, 4 buckets, written as R sorted runs with
 * random or clustered updates, plus the same live rows compacted and a deletion-vector variant
 * ({@link ReadAmplificationTables}). Measured, each after warm-up, median and spread:
 * <ol>
 * <li>full scans through our connector in an in-process Trino, every column consumed by an aggregate;</li>
 * <li>on one bucket, single-threaded: our page source, with late materialization and with every page read whole
 * (and the share of physical records whose values it never decoded); the physical floor (every record of the same files decoded by
 * the same file reader, no merge); Paimon Java 1.4.2's reader (its own merge read of the same format) with every field
 * of every row appended into Trino
 * blocks. Each produces pages whose blocks hold every value; the warm-ups also read every value of both merged
 * reads and check they agree;</li>
 * <li>point lookups and small key ranges through the connector: latency, splits, files opened and bytes read;</li>
 * <li>retained heap of one bucket's read ({@link HeapProbe}) and bytes allocated per row.</li>
 * </ol>
 * Prints Markdown tables with ratios against the targets, and writes a CSV and a PNG chart of rows/s against
 * sorted runs, into {@code testing/target/benchmark/}. Run: {@code ./mvnw -B -DskipTests -Pbenchmark -Dbenchmark.class=io.trino.plugin.paimon.benchmark.BenchmarkReadAmplification package}
 * with {@code -Dbenchmark.args="--quick"} for a run of a couple of minutes; other flags: {@code --rows=N},
 * {@code --runs=1,2,5,8}, {@code --warmups=N}, {@code --iterations=N}, {@code --lookups=N}, {@code --output=DIR},
 * {@code --buckets-only} (the one-bucket reads alone: no query, lookup or heap figures),
 * {@code --format=orc} (or {@code avro}) for tables of that {@code file.format} instead of Parquet: our ORC read and
 * Paimon Java's ORC merge read side by side.
 */
public final class BenchmarkReadAmplification
{
    private static final String SCAN_QUERY = """
            SELECT count(*), sum(id), max(c_long), sum(c_double), max(c_short_text), max(c_long_text), sum(c_int), sum(c_decimal), max(c_date), count_if(c_bool)
            FROM %s
            """;
    private static final int MEASURED_BUCKET = 0;
    private static final int RANGE_WIDTH = 100;
    private static final int HEAP_SAMPLES = 10;

    private BenchmarkReadAmplification() {}

    record Settings(boolean quick, int rows, List<Integer> sortedRuns, int warmups, int iterations, int lookups, String format, Path output, boolean bucketsOnly)
    {
        Settings
        {
            sortedRuns = ImmutableList.copyOf(sortedRuns);
            requireNonNull(format, "format is null");
            requireNonNull(output, "output is null");
        }

        static Settings parse(String[] args)
        {
            boolean quick = Arrays.asList(args).contains("--quick");
            boolean bucketsOnly = Arrays.asList(args).contains("--buckets-only");
            int rows = quick ? 200_000 : 2_000_000;
            List<Integer> runs = quick ? List.of(1, 2, 5) : List.of(1, 2, 5, 8);
            int warmups = 1;
            int iterations = quick ? 2 : 3;
            int lookups = quick ? 3 : 10;
            String format = "parquet";
            Path output = Path.of("target", "benchmark");
            for (String arg : args) {
                String value = arg.substring(arg.indexOf('=') + 1);
                if (arg.startsWith("--rows=")) {
                    rows = Integer.parseInt(value);
                }
                else if (arg.startsWith("--runs=")) {
                    runs = Arrays.stream(value.split(",")).map(Integer::parseInt).sorted().toList();
                }
                else if (arg.startsWith("--warmups=")) {
                    warmups = Integer.parseInt(value);
                }
                else if (arg.startsWith("--iterations=")) {
                    iterations = Integer.parseInt(value);
                }
                else if (arg.startsWith("--lookups=")) {
                    lookups = Integer.parseInt(value);
                }
                else if (arg.startsWith("--format=")) {
                    format = value;
                    if (!List.of("parquet", "orc", "avro").contains(format)) {
                        throw new IllegalArgumentException("--format is parquet, orc or avro: " + arg);
                    }
                }
                else if (arg.startsWith("--output=")) {
                    output = Path.of(value);
                }
                else if (!arg.equals("--quick") && !arg.equals("--buckets-only")) {
                    throw new IllegalArgumentException("unknown argument: " + arg);
                }
            }
            return new Settings(quick, rows, runs, warmups, iterations, lookups, format, output, bucketsOnly);
        }
    }

    /** A table of the suite: its shape and its number of sorted runs per bucket (commits, for deletion vectors). */
    record TableCase(String name, String shape, int runs) {}

    /** Nanoseconds of the measured iterations. */

    record ScanFigures(TableCase table, long liveRows, Timing query) {}

    /**
     * @param oursWholePages our page source with late materialization off: every page of a merged section read whole
     * @param onePass our page source with the two-pass merge read off (late materialization on)
     * @param twoPass our page source with the two-pass merge read on
     * @param twoPassNoGap the same reading exactly the merged rows, no rows between them decoded
     * @param valuesUnread physical records whose value columns our read never decoded
     * @param twoPassValuesUnread the same with the two-pass merge read on
     * @param twoPassValuePagesUnread Parquet data pages the second pass left unread, as they hold no merged row
     */
    record BucketFigures(TableCase table, long rows, long physicalRows, int files, Timing ours, Timing oursWholePages, Timing onePass, Timing twoPass, Timing twoPassNoGap, Timing floor, Timing paimonJava, long valuesUnread, long twoPassValuesUnread, long twoPassValuePagesUnread) {}

    record LookupFigures(TableCase table, String kind, Timing latency, double splits, double filesOpened, double bytes, long maxSplits, long maxFilesOpened) {}

    record HeapFigures(TableCase table, long oursRetained, long oursReported, double oursAllocatedPerRow, long twoPassRetained, long twoPassReported, double twoPassAllocatedPerRow, long paimonRetained, double paimonAllocatedPerRow, long pageBytes) {}

    public static void main(String[] args)
            throws Exception
    {
        Settings settings = Settings.parse(args);
        long started = System.nanoTime();
        Path root = Files.createTempDirectory("paimon-read-amplification");
        try (PaimonJavaCatalog paimon = new PaimonJavaCatalog(Files.createDirectories(root.resolve(PaimonQueryRunner.WAREHOUSE_DIRECTORY)))) {
            List<TableCase> tables = writeTables(settings, paimon, Files.createDirectories(root.resolve("io")));
            System.out.println("wrote %d tables of %,d live rows in %,d s".formatted(tables.size(), settings.rows(), (System.nanoTime() - started) / 1_000_000_000));

            List<ScanFigures> scans = new ArrayList<>();
            List<LookupFigures> lookups = new ArrayList<>();
            try (QueryRunner queryRunner = settings.bucketsOnly() ? null : PaimonQueryRunner.create(root, DATABASE)) {
                for (TableCase table : tables) {
                    if (!settings.bucketsOnly()) {
                        scans.add(measureScan(settings, queryRunner, table));
                    }
                }
                // --quick looks up only the tables with the most runs, the compacted and the deletion-vector table
                for (TableCase table : tables) {
                    if (settings.bucketsOnly()) {
                        break;
                    }
                    if (settings.quick() && table.shape().matches("random|clustered") && table.runs() != settings.sortedRuns().getLast()) {
                        continue;
                    }
                    lookups.add(measureLookups(settings, queryRunner, table, "point", id -> "id = " + id));
                    lookups.add(measureLookups(settings, queryRunner, table, "range of " + RANGE_WIDTH, id -> "id BETWEEN %d AND %d".formatted(id, id + RANGE_WIDTH - 1)));
                }
            }

            SingleBucketReads reads = new SingleBucketReads(root);
            List<BucketFigures> buckets = new ArrayList<>();
            List<HeapFigures> heaps = new ArrayList<>();
            for (TableCase table : tables) {
                buckets.add(measureBucket(settings, reads, paimon, table));
                if (!settings.bucketsOnly()) {
                    heaps.add(measureHeap(reads, paimon, table));
                }
            }

            Report report = new Report(settings, tables, scans, buckets, lookups, heaps);
            String markdown = report.markdown((System.nanoTime() - started) / 1_000_000_000);
            System.out.println("\n" + markdown);
            Files.createDirectories(settings.output());
            // the Parquet suite keeps its file names; another format's run goes beside it
            String baseName = settings.format().equals("parquet") ? "read-amplification" : "read-amplification-" + settings.format();
            Path markdownFile = settings.output().resolve(baseName + ".md");
            Files.writeString(markdownFile, markdown);
            Path csv = settings.output().resolve(baseName + ".csv");
            Files.writeString(csv, report.csv());
            Path chart = settings.output().resolve(baseName + ".png");
            if (!settings.bucketsOnly()) {
                ChartWriter.write(chart, "Merge read of %,d rows in %s, 4 buckets: rows/s against sorted runs".formatted(settings.rows(), settings.format()), "sorted runs per bucket", "rows/s", report.chartSeries());
            }
            System.out.println("report: %s, CSV: %s, chart: %s".formatted(markdownFile.toAbsolutePath(), csv.toAbsolutePath(), chart.toAbsolutePath()));
        }
        finally {
            deleteRecursively(root, ALLOW_INSECURE);
        }
    }

    private static List<TableCase> writeTables(Settings settings, PaimonJavaCatalog paimon, Path ioDirectory)
    {
        paimon.createDatabase(DATABASE);
        ReadAmplificationTables writer = new ReadAmplificationTables(paimon, ioDirectory, settings.rows(), settings.format());
        List<TableCase> tables = new ArrayList<>();
        for (Shape shape : Shape.values()) {
            long start = System.nanoTime();
            writer.writeShape(shape, settings.sortedRuns());
            System.out.println("wrote %s tables in %,d ms".formatted(shape, (System.nanoTime() - start) / 1_000_000));
        }
        for (int runs : settings.sortedRuns()) {
            for (Shape shape : Shape.values()) {
                tables.add(new TableCase(shape.tableName(runs), shape.name().toLowerCase(Locale.ENGLISH), runs));
            }
        }
        int maxRuns = settings.sortedRuns().getLast();
        writer.writeCompacted(Shape.RANDOM.tableName(maxRuns));
        tables.add(new TableCase(COMPACTED, "compacted " + Shape.RANDOM.tableName(maxRuns), 1));
        int deletionVectorCommits = settings.sortedRuns().contains(5) ? 5 : maxRuns;
        long start = System.nanoTime();
        writer.writeDeletionVectors(deletionVectorCommits);
        System.out.println("wrote the deletion-vector table in %,d ms".formatted((System.nanoTime() - start) / 1_000_000));
        tables.add(new TableCase(DELETION_VECTORS, "deletion vectors (commits)", deletionVectorCommits));
        return tables;
    }

    private static ScanFigures measureScan(Settings settings, QueryRunner queryRunner, TableCase table)
    {
        long[] nanos = new long[settings.iterations()];
        for (int iteration = -settings.warmups(); iteration < settings.iterations(); iteration++) {
            long start = System.nanoTime();
            Object count = queryRunner.execute(SCAN_QUERY.formatted(table.name())).getMaterializedRows().getFirst().getField(0);
            long elapsed = System.nanoTime() - start;
            if (!count.equals((long) settings.rows())) {
                throw new IllegalStateException("%s: read %s rows, expected %s".formatted(table.name(), count, settings.rows()));
            }
            if (iteration >= 0) {
                nanos[iteration] = elapsed;
            }
        }
        Timing timing = new Timing(nanos);
        System.out.println("scan %-20s %,12.0f rows/s (%s)".formatted(table.name(), timing.rowsPerSecond(settings.rows()), timing.spread()));
        return new ScanFigures(table, settings.rows(), timing);
    }

    private static LookupFigures measureLookups(Settings settings, QueryRunner queryRunner, TableCase table, String kind, Function<Long, String> predicate)
    {
        Random random = new Random(7);
        List<Long> nanos = new ArrayList<>();
        long splits = 0;
        long files = 0;
        long bytes = 0;
        long maxSplits = 0;
        long maxFiles = 0;
        for (int iteration = -settings.warmups(); iteration < settings.iterations(); iteration++) {
            for (int lookup = 0; lookup < settings.lookups(); lookup++) {
                long id = random.nextInt(settings.rows());
                ScanStatistics statistics = ScanStatistics.execute(queryRunner, "SELECT * FROM %s WHERE %s".formatted(table.name(), predicate.apply(id)));
                if (statistics.result().getRowCount() == 0) {
                    throw new IllegalStateException("%s: no row for %s".formatted(table.name(), predicate.apply(id)));
                }
                if (iteration >= 0) {
                    nanos.add(statistics.elapsedNanos());
                    splits += statistics.splits();
                    files += statistics.filesOpened();
                    bytes += statistics.physicalInputBytes();
                    maxSplits = Math.max(maxSplits, statistics.splits());
                    maxFiles = Math.max(maxFiles, statistics.filesOpened());
                }
            }
        }
        Timing timing = new Timing(nanos.stream().mapToLong(Long::longValue).toArray());
        double count = nanos.size();
        System.out.println("%s lookup %-20s %,8.1f ms (%s), %.1f splits, %.1f files, %,.0f bytes".formatted(kind, table.name(), timing.medianMillis(), timing.spread(), splits / count, files / count, bytes / count));
        return new LookupFigures(table, kind, timing, splits / count, files / count, bytes / count, maxSplits, maxFiles);
    }

    private static BucketFigures measureBucket(Settings settings, SingleBucketReads reads, PaimonJavaCatalog paimon, TableCase table)
            throws Exception
    {
        SingleBucketReads.Table ourTable = reads.table(DATABASE, table.name());
        PaimonSplit split = reads.split(ourTable, MEASURED_BUCKET);
        org.apache.paimon.table.Table paimonTable = paimon.getTable(DATABASE, table.name());
        List<Type> types = ourTable.types();
        long[] ours = new long[settings.iterations()];
        long[] oursWholePages = new long[settings.iterations()];
        long[] onePass = new long[settings.iterations()];
        long[] twoPass = new long[settings.iterations()];
        long[] twoPassNoGap = new long[settings.iterations()];
        long[] floor = new long[settings.iterations()];
        long[] paimonJava = new long[settings.iterations()];
        long rows = 0;
        long physicalRows = 0;
        // the warm-ups check that both merged reads agree, value by value; the measured iterations only produce pages
        // (every block of ours and of the floor is decoded, Paimon Java's rows are appended into blocks)
        for (int warmup = 0; warmup < settings.warmups(); warmup++) {
            PageChecksum oursChecksum = new PageChecksum(types, IntStream.range(0, types.size()).toArray());
            rows = reads.readOurs(ourTable, split, oursChecksum::accept, _ -> {});
            PageChecksum paimonChecksum = new PageChecksum(types, IntStream.range(0, types.size()).toArray());
            long paimonRows = PaimonJavaPageReader.read(paimonTable, MEASURED_BUCKET, types, paimonChecksum::accept);
            if (paimonRows != rows || paimonChecksum.checksum() != oursChecksum.checksum()) {
                throw new IllegalStateException("%s bucket %d: we read %d rows (checksum %d), Paimon Java %d rows (checksum %d)"
                        .formatted(table.name(), MEASURED_BUCKET, rows, oursChecksum.checksum(), paimonRows, paimonChecksum.checksum()));
            }
            PageChecksum wholePagesChecksum = new PageChecksum(types, IntStream.range(0, types.size()).toArray());
            long wholePagesRows = reads.readOursWholePages(ourTable, split, wholePagesChecksum::accept);
            if (wholePagesRows != rows || wholePagesChecksum.checksum() != oursChecksum.checksum()) {
                throw new IllegalStateException("%s bucket %d: with pages read whole we read %d rows (checksum %d), with late materialization %d rows (checksum %d)"
                        .formatted(table.name(), MEASURED_BUCKET, wholePagesRows, wholePagesChecksum.checksum(), rows, oursChecksum.checksum()));
            }
            for (boolean twoPassOn : new boolean[] {false, true}) {
                PageChecksum checksum = new PageChecksum(types, IntStream.range(0, types.size()).toArray());
                long passRows = reads.readOurs(ourTable, split, twoPassOn, checksum::accept);
                if (passRows != rows || checksum.checksum() != oursChecksum.checksum()) {
                    throw new IllegalStateException("%s bucket %d: with the two-pass merge read %s we read %d rows (checksum %d), by default %d rows (checksum %d)"
                            .formatted(table.name(), MEASURED_BUCKET, twoPassOn ? "on" : "off", passRows, checksum.checksum(), rows, oursChecksum.checksum()));
                }
            }
            PageChecksum noGapChecksum = new PageChecksum(types, IntStream.range(0, types.size()).toArray());
            if (reads.readOursTwoPassNoGap(ourTable, split, noGapChecksum::accept) != rows || noGapChecksum.checksum() != oursChecksum.checksum()) {
                throw new IllegalStateException("%s bucket %d: the two-pass read of exactly the merged rows differs from the default read".formatted(table.name(), MEASURED_BUCKET));
            }
            physicalRows = reads.readPhysicalFloor(ourTable, split, _ -> {});
        }
        for (int iteration = 0; iteration < settings.iterations(); iteration++) {
            long start = System.nanoTime();
            rows = reads.readOurs(ourTable, split, _ -> {}, _ -> {});
            ours[iteration] = System.nanoTime() - start;

            start = System.nanoTime();
            reads.readOursWholePages(ourTable, split, _ -> {});
            oursWholePages[iteration] = System.nanoTime() - start;

            // one-pass and two-pass back to back, in rotating order, so that load from elsewhere hits them alike
            for (int pass = 0; pass < 3; pass++) {
                int read = (pass + iteration) % 3;
                start = System.nanoTime();
                switch (read) {
                    case 0 -> reads.readOurs(ourTable, split, false, _ -> {});
                    case 1 -> reads.readOurs(ourTable, split, true, _ -> {});
                    default -> reads.readOursTwoPassNoGap(ourTable, split, _ -> {});
                }
                (read == 0 ? onePass : read == 1 ? twoPass : twoPassNoGap)[iteration] = System.nanoTime() - start;
            }

            start = System.nanoTime();
            physicalRows = reads.readPhysicalFloor(ourTable, split, _ -> {});
            floor[iteration] = System.nanoTime() - start;

            start = System.nanoTime();
            PaimonJavaPageReader.read(paimonTable, MEASURED_BUCKET, types, _ -> {});
            paimonJava[iteration] = System.nanoTime() - start;
        }
        long valuesUnread = ((LongCount) reads.readMetrics(ourTable, split, false).getMetrics().get(PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC)).getTotal();
        Map<String, Metric<?>> twoPassMetrics = reads.readMetrics(ourTable, split, true).getMetrics();
        long twoPassValuesUnread = ((LongCount) twoPassMetrics.get(PaimonPageSource.RECORDS_VALUES_UNREAD_METRIC)).getTotal();
        long twoPassValuePagesUnread = ((LongCount) twoPassMetrics.get(PaimonPageSource.VALUE_PAGES_UNREAD_METRIC)).getTotal();
        BucketFigures figures = new BucketFigures(table, rows, physicalRows, split.files().size(), new Timing(ours), new Timing(oursWholePages), new Timing(onePass), new Timing(twoPass), new Timing(twoPassNoGap), new Timing(floor), new Timing(paimonJava), valuesUnread, twoPassValuesUnread, twoPassValuePagesUnread);
        System.out.println("bucket %d of %-20s ours %,12.0f rows/s (pages whole %,12.0f rows/s, values unread for %.1f %% of records; two-pass ÷ one-pass %.2f, values unread %.1f %%), floor %,12.0f physical rows/s, Paimon Java + blocks %,12.0f rows/s".formatted(MEASURED_BUCKET, table.name(),
                figures.ours().rowsPerSecond(rows), figures.oursWholePages().rowsPerSecond(rows), 100.0 * valuesUnread / physicalRows, figures.twoPass().medianMillis() / figures.onePass().medianMillis(),
                100.0 * twoPassValuesUnread / physicalRows, figures.floor().rowsPerSecond(physicalRows), figures.paimonJava().rowsPerSecond(rows)));
        return figures;
    }

    private static HeapFigures measureHeap(SingleBucketReads reads, PaimonJavaCatalog paimon, TableCase table)
            throws Exception
    {
        SingleBucketReads.Table ourTable = reads.table(DATABASE, table.name());
        PaimonSplit split = reads.split(ourTable, MEASURED_BUCKET);
        org.apache.paimon.table.Table paimonTable = paimon.getTable(DATABASE, table.name());
        List<Type> types = ourTable.types();
        int[] channels = IntStream.range(0, types.size()).toArray();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        // allocation: one plain read each
        PageChecksum ourPages = new PageChecksum(types, channels);
        long allocated = threads.getCurrentThreadAllocatedBytes();
        long rows = reads.readOurs(ourTable, split, ourPages::accept, _ -> {});
        double oursAllocatedPerRow = (double) (threads.getCurrentThreadAllocatedBytes() - allocated) / rows;
        allocated = threads.getCurrentThreadAllocatedBytes();
        reads.readOurs(ourTable, split, true, _ -> {});
        double twoPassAllocatedPerRow = (double) (threads.getCurrentThreadAllocatedBytes() - allocated) / rows;
        PageChecksum paimonPages = new PageChecksum(types, channels);
        allocated = threads.getCurrentThreadAllocatedBytes();
        PaimonJavaPageReader.read(paimonTable, MEASURED_BUCKET, types, paimonPages::accept);
        double paimonAllocatedPerRow = (double) (threads.getCurrentThreadAllocatedBytes() - allocated) / rows;

        // retained: full collections at a few points of another read each
        HeapProbe ourProbe = new HeapProbe((int) Math.max(1, ourPages.pages() / HEAP_SAMPLES));
        long[] reported = new long[1];
        reads.readOurs(ourTable, split, _ -> ourProbe.pageConsumed(), memory -> reported[0] = Math.max(reported[0], memory));
        // the two-pass read's pages come a file's part of a window at a time: probe as often per row
        HeapProbe twoPassProbe = new HeapProbe((int) Math.max(1, ourPages.pages() / HEAP_SAMPLES));
        long[] twoPassReported = new long[1];
        reads.readOurs(ourTable, split, true, _ -> twoPassProbe.pageConsumed(), memory -> twoPassReported[0] = Math.max(twoPassReported[0], memory));
        HeapProbe paimonProbe = new HeapProbe((int) Math.max(1, paimonPages.pages() / HEAP_SAMPLES));
        PaimonJavaPageReader.read(paimonTable, MEASURED_BUCKET, types, _ -> paimonProbe.pageConsumed());

        HeapFigures figures = new HeapFigures(table, ourProbe.peakRetainedBytes(), reported[0], oursAllocatedPerRow, twoPassProbe.peakRetainedBytes(), twoPassReported[0], twoPassAllocatedPerRow,
                paimonProbe.peakRetainedBytes(), paimonAllocatedPerRow, ourPages.averagePageBytes());
        System.out.println("heap %-20s ours retained %,d KB (page source reports %,d KB), %,.0f B/row allocated; two-pass %,d KB (reports %,d KB), %,.0f B/row; Paimon Java retained %,d KB, %,.0f B/row".formatted(table.name(),
                figures.oursRetained() / 1024, figures.oursReported() / 1024, oursAllocatedPerRow, figures.twoPassRetained() / 1024, figures.twoPassReported() / 1024, twoPassAllocatedPerRow,
                figures.paimonRetained() / 1024, paimonAllocatedPerRow));
        return figures;
    }

    /** The figures of one run as Markdown tables, CSV rows and chart lines. */
    private record Report(Settings settings, List<TableCase> tables, List<ScanFigures> scans, List<BucketFigures> buckets, List<LookupFigures> lookups, List<HeapFigures> heaps)
    {
        String markdown(long seconds)
        {
            StringBuilder out = new StringBuilder();
            out.append("## %s, %s: %,d rows in %s files, 4 buckets, sorted runs %s, %d warm-up + %d measured iterations (median, min..max), %d s in all%n%n".formatted(
                    Instant.now().toString().substring(0, 10), settings.quick() ? "--quick" : "full", settings.rows(), settings.format(), settings.sortedRuns(), settings.warmups(), settings.iterations(), seconds));
            if (!scans.isEmpty()) {
                out.append("### 1. Full scan through Trino (in-process, 4 bucket splits, every column aggregated)%n%n".formatted());
                out.append("| table | shape | runs | rows/s | median | spread | ÷ compacted |\n| --- | --- | --- | --- | --- | --- | --- |\n");
                double compacted = scan(COMPACTED).query().rowsPerSecond(settings.rows());
                for (ScanFigures scan : scans) {
                    double rate = scan.query().rowsPerSecond(scan.liveRows());
                    out.append("| %s | %s | %d | %,.0f | %,.0f ms | %s | %.2f |%n".formatted(scan.table().name(), scan.table().shape(), scan.table().runs(), rate, scan.query().medianMillis(), scan.query().spread(), rate / compacted));
                }
            }
            out.append("%n### 2–3. One bucket (bucket %d), one thread: our page source, the physical floor, Paimon Java 1.4.2 + row-to-block conversion%n%n".formatted(MEASURED_BUCKET));
            out.append("| table | runs | files | live rows | physical rows | ours rows/s | floor (no merge) ms | ours ms | ours, pages whole ms | late ÷ whole (time) | values unread ÷ physical rows | ours ÷ floor (time) | Paimon Java + blocks rows/s | ours ÷ Paimon Java | ours ÷ compacted (time) |\n");
            out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            BucketFigures compactedBucket = bucket(COMPACTED);
            double compactedRate = compactedBucket.ours().rowsPerSecond(compactedBucket.rows());
            for (BucketFigures bucket : buckets) {
                double ours = bucket.ours().rowsPerSecond(bucket.rows());
                double paimon = bucket.paimonJava().rowsPerSecond(bucket.rows());
                out.append("| %s | %d | %d | %,d | %,d | %,.0f | %,.0f (%s) | %,.0f (%s) | %,.0f (%s) | %.2f | %.3f | %.2f | %,.0f | %.2f | %.2f |%n".formatted(
                        bucket.table().name(), bucket.table().runs(), bucket.files(), bucket.rows(), bucket.physicalRows(), ours,
                        bucket.floor().medianMillis(), bucket.floor().spread(), bucket.ours().medianMillis(), bucket.ours().spread(),
                        bucket.oursWholePages().medianMillis(), bucket.oursWholePages().spread(), bucket.ours().medianMillis() / bucket.oursWholePages().medianMillis(),
                        (double) bucket.valuesUnread() / bucket.physicalRows(),
                        bucket.ours().medianMillis() / bucket.floor().medianMillis(), paimon, ours / paimon, compactedRate / ours));
            }
            out.append("%n### 3b. Two-pass merge read on and off, same bucket, back to back in each iteration%n%n".formatted());
            out.append("| table | runs | one-pass ms | two-pass ms | two-pass ÷ one-pass (median; per iteration min..max) | two-pass, no gap read ÷ one-pass (median; min..max) | values unread ÷ physical rows, one-pass | values unread ÷ physical rows, two-pass | value pages unread, two-pass | two-pass ÷ compacted (time) |\n");
            out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (BucketFigures bucket : buckets) {
                double[] ratios = ratiosPerIteration(bucket.twoPass(), bucket.onePass());
                double[] noGapRatios = ratiosPerIteration(bucket.twoPassNoGap(), bucket.onePass());
                out.append("| %s | %d | %,.0f (%s) | %,.0f (%s) | %.2f (%.2f..%.2f) | %.2f (%.2f..%.2f) | %.3f | %.3f | %,d | %.2f |%n".formatted(
                        bucket.table().name(), bucket.table().runs(), bucket.onePass().medianMillis(), bucket.onePass().spread(), bucket.twoPass().medianMillis(), bucket.twoPass().spread(),
                        bucket.twoPass().medianMillis() / bucket.onePass().medianMillis(), ratios[0], ratios[ratios.length - 1],
                        bucket.twoPassNoGap().medianMillis() / bucket.onePass().medianMillis(), noGapRatios[0], noGapRatios[noGapRatios.length - 1],
                        (double) bucket.valuesUnread() / bucket.physicalRows(), (double) bucket.twoPassValuesUnread() / bucket.physicalRows(),
                        bucket.twoPassValuePagesUnread(), bucket.twoPass().medianMillis() / compactedBucket.onePass().medianMillis()));
            }
            out.append("%n### 4. Lookups through Trino (%d per iteration; latency is the query's elapsed time)%n%n".formatted(settings.lookups()));
            out.append("| table | runs | lookup | median | spread | splits (mean / max) | files opened (mean / max) | bytes read (mean) | one bucket, ≤ one file per run |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (LookupFigures lookup : lookups) {
                String target = lookup.kind().equals("point") ? (lookup.maxSplits() == 1 && lookup.maxFilesOpened() <= lookup.table().runs() ? "yes" : "**no**") : "–";
                out.append("| %s | %d | %s | %,.1f ms | %s | %.1f / %d | %.1f / %d | %,.0f | %s |%n".formatted(lookup.table().name(), lookup.table().runs(), lookup.kind(),
                        lookup.latency().medianMillis(), lookup.latency().spread(), lookup.splits(), lookup.maxSplits(), lookup.filesOpened(), lookup.maxFilesOpened(), lookup.bytes(), target));
            }
            out.append("%n### 5. Heap of one bucket's read (bucket %d)%n%n".formatted(MEASURED_BUCKET));
            out.append("| table | runs | ours: retained peak | ours: page source reports | runs × mean output page | ours: allocated / row | two-pass: retained peak | two-pass: page source reports | two-pass: allocated / row | Paimon Java + blocks: retained peak | Paimon Java: allocated / row |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (HeapFigures heap : heaps) {
                out.append("| %s | %d | %,d KB | %,d KB | %,d KB | %,.0f B | %,d KB | %,d KB | %,.0f B | %,d KB | %,.0f B |%n".formatted(heap.table().name(), heap.table().runs(),
                        heap.oursRetained() / 1024, heap.oursReported() / 1024, heap.table().runs() * heap.pageBytes() / 1024, heap.oursAllocatedPerRow(),
                        heap.twoPassRetained() / 1024, heap.twoPassReported() / 1024, heap.twoPassAllocatedPerRow(), heap.paimonRetained() / 1024, heap.paimonAllocatedPerRow()));
            }
            out.append("%n### Targets%n%n".formatted());
            out.append("| target | measured | met |\n| --- | --- | --- |\n");
            for (Shape shape : Shape.values()) {
                if (!settings.sortedRuns().contains(5)) {
                    break;
                }
                BucketFigures five = bucket(shape.tableName(5));
                double speedup = five.ours().rowsPerSecond(five.rows()) / five.paimonJava().rowsPerSecond(five.rows());
                out.append("| R = 5, %s: page source ≥ 3 × Paimon Java + blocks | %.2f × | %s |%n".formatted(shape.name().toLowerCase(Locale.ENGLISH), speedup, speedup >= 3 ? "yes" : "**no**"));
                double overFloor = five.ours().medianMillis() / five.floor().medianMillis();
                out.append("| R = 5, %s: merged read ≤ 1.3 × physical floor (time) | %.2f × | %s |%n".formatted(shape.name().toLowerCase(Locale.ENGLISH), overFloor, overFloor <= 1.3 ? "yes" : "**no**"));
            }
            if (settings.sortedRuns().contains(5)) {
                BucketFigures clustered = bucket(Shape.CLUSTERED.tableName(5));
                double ratio = clustered.ours().rowsPerSecond(clustered.rows()) / compactedRate;
                out.append("| R = 5, clustered: close to the compacted read (rows/s) | %.2f × compacted | %s |%n".formatted(ratio, ratio >= 0.8 ? "yes (≥ 0.8)" : "**no** (< 0.8)"));
            }
            if (settings.bucketsOnly()) {
                return out.toString();
            }
            boolean lookupsMet = lookups.stream().filter(lookup -> lookup.kind().equals("point")).allMatch(lookup -> lookup.maxSplits() == 1 && lookup.maxFilesOpened() <= lookup.table().runs());
            out.append("| point lookup: one bucket, ≤ one file per sorted run | every table | %s |%n".formatted(lookupsMet ? "yes" : "**no**"));
            return out.toString();
        }

        String csv()
        {
            StringBuilder out = new StringBuilder("section,table,shape,runs,measure,unit,median,min,max\n");
            for (ScanFigures scan : scans) {
                row(out, "full_scan", scan.table(), "query", scan.query(), scan.liveRows());
            }
            for (BucketFigures bucket : buckets) {
                row(out, "bucket", bucket.table(), "ours_page_source", bucket.ours(), bucket.rows());
                row(out, "bucket", bucket.table(), "ours_page_source_pages_whole", bucket.oursWholePages(), bucket.rows());
                row(out, "bucket", bucket.table(), "ours_page_source_one_pass", bucket.onePass(), bucket.rows());
                row(out, "bucket", bucket.table(), "ours_page_source_two_pass", bucket.twoPass(), bucket.rows());
                out.append("bucket,%s,%s,%d,two_pass_values_unread,records,%d,,%n".formatted(bucket.table().name(), bucket.table().shape(), bucket.table().runs(), bucket.twoPassValuesUnread()));
                out.append("bucket,%s,%s,%d,values_unread,records,%d,,%n".formatted(bucket.table().name(), bucket.table().shape(), bucket.table().runs(), bucket.valuesUnread()));
                row(out, "bucket", bucket.table(), "physical_floor", bucket.floor(), bucket.physicalRows());
                row(out, "bucket", bucket.table(), "paimon_java_with_blocks", bucket.paimonJava(), bucket.rows());
            }
            for (LookupFigures lookup : lookups) {
                String measure = lookup.kind().replace(' ', '_');
                out.append("lookup,%s,%s,%d,%s_latency,ms,%.3f,%.3f,%.3f%n".formatted(lookup.table().name(), lookup.table().shape(), lookup.table().runs(), measure,
                        lookup.latency().medianMillis(), lookup.latency().minMillis(), lookup.latency().maxMillis()));
                out.append("lookup,%s,%s,%d,%s_splits,count,%.2f,,%d%n".formatted(lookup.table().name(), lookup.table().shape(), lookup.table().runs(), measure, lookup.splits(), lookup.maxSplits()));
                out.append("lookup,%s,%s,%d,%s_files_opened,count,%.2f,,%d%n".formatted(lookup.table().name(), lookup.table().shape(), lookup.table().runs(), measure, lookup.filesOpened(), lookup.maxFilesOpened()));
                out.append("lookup,%s,%s,%d,%s_bytes_read,bytes,%.0f,,%n".formatted(lookup.table().name(), lookup.table().shape(), lookup.table().runs(), measure, lookup.bytes()));
            }
            for (HeapFigures heap : heaps) {
                String prefix = "heap,%s,%s,%d,".formatted(heap.table().name(), heap.table().shape(), heap.table().runs());
                out.append(prefix).append("ours_retained_peak,bytes,%d,,%n".formatted(heap.oursRetained()));
                out.append(prefix).append("ours_reported_peak,bytes,%d,,%n".formatted(heap.oursReported()));
                out.append(prefix).append("ours_allocated_per_row,bytes,%.1f,,%n".formatted(heap.oursAllocatedPerRow()));
                out.append(prefix).append("two_pass_retained_peak,bytes,%d,,%n".formatted(heap.twoPassRetained()));
                out.append(prefix).append("two_pass_reported_peak,bytes,%d,,%n".formatted(heap.twoPassReported()));
                out.append(prefix).append("two_pass_allocated_per_row,bytes,%.1f,,%n".formatted(heap.twoPassAllocatedPerRow()));
                out.append(prefix).append("paimon_java_retained_peak,bytes,%d,,%n".formatted(heap.paimonRetained()));
                out.append(prefix).append("paimon_java_allocated_per_row,bytes,%.1f,,%n".formatted(heap.paimonAllocatedPerRow()));
            }
            return out.toString();
        }

        private static void row(StringBuilder out, String section, TableCase table, String measure, Timing timing, long rows)
        {
            out.append("%s,%s,%s,%d,%s,rows/s,%.0f,%.0f,%.0f%n".formatted(section, table.name(), table.shape(), table.runs(), measure,
                    timing.rowsPerSecond(rows), rows / (timing.maxMillis() / 1e3), rows / (timing.minMillis() / 1e3)));
        }

        List<ChartWriter.Series> chartSeries()
        {
            List<ChartWriter.Series> series = new ArrayList<>();
            Color[] colors = {new Color(0, 90, 181), new Color(220, 50, 32), new Color(150, 80, 170)};
            for (Shape shape : Shape.values()) {
                Color color = colors[shape.ordinal()];
                String name = shape.name().toLowerCase(Locale.ENGLISH);
                List<double[]> query = new ArrayList<>();
                List<double[]> ours = new ArrayList<>();
                List<double[]> floor = new ArrayList<>();
                List<double[]> paimon = new ArrayList<>();
                for (int runs : settings.sortedRuns()) {
                    query.add(new double[] {runs, scan(shape.tableName(runs)).query().rowsPerSecond(settings.rows())});
                    BucketFigures bucket = bucket(shape.tableName(runs));
                    ours.add(new double[] {runs, bucket.ours().rowsPerSecond(bucket.rows())});
                    // the floor as the live rows it would deliver, so it is comparable with the merged reads
                    floor.add(new double[] {runs, bucket.floor().rowsPerSecond(bucket.rows())});
                    paimon.add(new double[] {runs, bucket.paimonJava().rowsPerSecond(bucket.rows())});
                }
                series.add(new ChartWriter.Series("Trino query, " + name, color, false, query));
                series.add(new ChartWriter.Series("our page source, " + name, color.brighter(), false, ours));
                series.add(new ChartWriter.Series("no-merge floor, " + name, color.darker(), true, floor));
                series.add(new ChartWriter.Series("Paimon Java + blocks, " + name, new Color(120, 120, 120).darker().darker(), shape == Shape.CLUSTERED, paimon));
            }
            BucketFigures compacted = bucket(COMPACTED);
            double compactedRate = compacted.ours().rowsPerSecond(compacted.rows());
            series.add(new ChartWriter.Series("our page source, compacted", new Color(0, 150, 70), true,
                    List.of(new double[] {1, compactedRate}, new double[] {settings.sortedRuns().getLast(), compactedRate})));
            return series;
        }

        // the time of each iteration of one read over that of the other read in the same iteration, ascending
        private static double[] ratiosPerIteration(Timing timing, Timing base)
        {
            return IntStream.range(0, timing.nanos().length)
                    .mapToDouble(iteration -> (double) timing.nanos()[iteration] / base.nanos()[iteration])
                    .sorted()
                    .toArray();
        }

        private ScanFigures scan(String table)
        {
            return scans.stream().filter(scan -> scan.table().name().equals(table)).findFirst().orElseThrow();
        }

        private BucketFigures bucket(String table)
        {
            return buckets.stream().filter(bucket -> bucket.table().name().equals(table)).findFirst().orElseThrow();
        }
    }
}
