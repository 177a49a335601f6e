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
package io.trino.plugin.paimon.testing;

import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import io.trino.filesystem.TrinoOutputFile;
import io.trino.filesystem.local.LocalFileSystemFactory;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.spi.security.ConnectorIdentity;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * A file system factory that injects failures into the operations of another (reliability.md §3.0): each rule names
 * an operation, a glob over the location's path, which matching occurrence fails (or a probability) and how. It also
 * counts operations and tracks streams that were opened and not closed, so that tests can assert no leak.
 * <p>
 * Use it directly ({@link #create(ConnectorIdentity)}) or in a query runner
 * ({@link PaimonQueryRunner#create(TrinoFileSystemFactory, String)}).
 */
public final class FaultFs
        implements TrinoFileSystemFactory
{
    public enum Operation
    {
        /** {@code newOutputFile(..).create()}: the stream fails on close (after-write actions) or on creation. */
        CREATE,
        CREATE_EXCLUSIVE,
        CREATE_OR_OVERWRITE,
        /** Opening an input file for reading ({@code newStream}, {@code newInput}); also {@code exists} and {@code length}. */
        OPEN,
        RENAME,
        DELETE,
        DELETE_DIRECTORY,
        LIST,
    }

    public enum Action
    {
        /** Fails with an {@code IOException} before the operation does anything. */
        THROW_BEFORE,
        /** Performs the operation, then fails with an {@code IOException}: the caller cannot tell it happened. */
        THROW_AFTER_WRITE,
        /** Performs the operation, then fails with {@code FileAlreadyExistsException} (trinodb/trino #27402). */
        ALREADY_EXISTS_AFTER_WRITE,
        /** Writes only the first {@code truncateTo} bytes and reports success. */
        TRUNCATE_TO,
        /** Blocks the operation, before it does anything, until the test releases it ({@link #hang}). */
        HANG,
    }

    /**
     * @param occurrence the n-th matching operation (1-based) fails; 0 with a probability: each matching one fails
     * with that probability, drawn from the fault file system's seeded random
     */
    public record Rule(Operation operation, String pathGlob, int occurrence, double probability, Action action, int truncateTo)
    {
        public Rule
        {
            requireNonNull(operation, "operation is null");
            requireNonNull(pathGlob, "pathGlob is null");
            requireNonNull(action, "action is null");
        }

        public static Rule nth(Operation operation, String pathGlob, int occurrence, Action action)
        {
            return new Rule(operation, pathGlob, occurrence, 0, action, 0);
        }

        public static Rule random(Operation operation, String pathGlob, double probability, Action action)
        {
            return new Rule(operation, pathGlob, 0, probability, action, 0);
        }

        public static Rule truncate(Operation operation, String pathGlob, int occurrence, int truncateTo)
        {
            return new Rule(operation, pathGlob, occurrence, 0, Action.TRUNCATE_TO, truncateTo);
        }
    }

    /** An injected failure, recognisable in the cause chain of what the code under test throws. */
    public static final class InjectedFault
            extends IOException
    {
        InjectedFault(String message)
        {
            super(message);
        }
    }

    private record ActiveRule(Rule rule, PathMatcher matcher, AtomicInteger seen) {}

    /** An operation held by a {@link Action#HANG} rule: the test waits until it is reached, then lets it go on. */
    public static final class Hang
    {
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final boolean throughInterrupts;

        private Hang(boolean throughInterrupts)
        {
            this.throughInterrupts = throughInterrupts;
        }

        public void awaitReached()
                throws InterruptedException
        {
            reached.await();
        }

        /** Waits at most the given time; false when the operation has not been reached yet. */
        public boolean awaitReached(long timeout, TimeUnit unit)
                throws InterruptedException
        {
            return reached.await(timeout, unit);
        }

        public void release()
        {
            released.countDown();
        }

        private void hold()
        {
            reached.countDown();
            while (true) {
                try {
                    released.await();
                    return;
                }
                catch (InterruptedException e) {
                    if (!throughInterrupts) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    private final TrinoFileSystemFactory delegate;
    private final List<ActiveRule> rules = new CopyOnWriteArrayList<>();
    private final Map<Operation, AtomicLong> counts = new EnumMap<>(Operation.class);
    private final Map<Object, Location> openStreams = new ConcurrentHashMap<>();
    private final Multiset<Location> opened = ConcurrentHashMultiset.create();
    private final AtomicLong injected = new AtomicLong();
    private final Random random;
    private final Map<Rule, Hang> hangs = new ConcurrentHashMap<>();

    public FaultFs(TrinoFileSystemFactory delegate, long seed)
    {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.random = new Random(seed);
        for (Operation operation : Operation.values()) {
            counts.put(operation, new AtomicLong());
        }
    }

    /** Over the local root that {@code local:///} locations resolve against, as {@link TempWarehouse#fileSystem()}. */
    public static FaultFs local(Path root, long seed)
    {
        return new FaultFs(new LocalFileSystemFactory(root), seed);
    }

    public FaultFs addRule(Rule rule)
    {
        rules.add(new ActiveRule(rule, FileSystems.getDefault().getPathMatcher("glob:" + rule.pathGlob()), new AtomicInteger()));
        return this;
    }

    /** Holds the n-th matching operation until the returned hang is released, or its thread is interrupted. */
    public Hang hang(Operation operation, String pathGlob, int occurrence)
    {
        return hang(operation, pathGlob, occurrence, false);
    }

    /**
     * Holds the n-th matching operation until the returned hang is released, and lets it go on then as if no interrupt
     * came meanwhile: it stands for a task on another node, which learns that its query failed only when Trino aborts it,
     * while Trino interrupts the drivers of a failed task on the same node at once.
     */
    public Hang hangThroughInterrupts(Operation operation, String pathGlob, int occurrence)
    {
        return hang(operation, pathGlob, occurrence, true);
    }

    private Hang hang(Operation operation, String pathGlob, int occurrence, boolean throughInterrupts)
    {
        Rule rule = new Rule(operation, pathGlob, occurrence, 0, Action.HANG, 0);
        Hang hang = new Hang(throughInterrupts);
        hangs.put(rule, hang);
        addRule(rule);
        return hang;
    }

    public void clearRules()
    {
        rules.clear();
        hangs.values().forEach(Hang::release);
        hangs.clear();
    }

    /** Files opened for reading since the last {@link #resetReads()}, each as often as it was opened. */
    public Multiset<Location> reads()
    {
        return ImmutableMultiset.copyOf(opened);
    }

    public void resetReads()
    {
        opened.clear();
    }

    /** Failures injected so far. */
    public long injectedFaults()
    {
        return injected.get();
    }

    public Map<Operation, Long> operationCounts()
    {
        ImmutableMap.Builder<Operation, Long> result = ImmutableMap.builder();
        counts.forEach((operation, count) -> result.put(operation, count.get()));
        return result.buildOrThrow();
    }

    /** Locations of streams opened through this file system and not closed yet. */
    public List<Location> openStreams()
    {
        return ImmutableList.copyOf(openStreams.values());
    }

    @Override
    public TrinoFileSystem create(ConnectorIdentity identity)
    {
        return new FaultFileSystem(delegate.create(identity));
    }

    /** The rule's action when this operation on the location is one to fail, else empty. */
    private Optional<Rule> fault(Operation operation, Location location)
    {
        counts.get(operation).incrementAndGet();
        Path path = Path.of(location.path());
        // every rule counts the operation before any hang holds it, so that the n-th occurrence means the same for each;
        // the rules count one operation at a time, or two racing operations could each be the first for one rule and
        // the second for another, and one of two hangs meant for them would hold neither
        Optional<Hang> held = Optional.empty();
        Optional<Rule> failing = Optional.empty();
        synchronized (rules) {
            for (ActiveRule active : rules) {
                Rule rule = active.rule();
                if (rule.operation() != operation || !active.matcher().matches(path)) {
                    continue;
                }
                int seen = active.seen().incrementAndGet();
                boolean fire;
                if (rule.occurrence() > 0) {
                    fire = seen == rule.occurrence();
                }
                else {
                    synchronized (random) {
                        fire = random.nextDouble() < rule.probability();
                    }
                }
                if (fire && rule.action() == Action.HANG) {
                    held = held.or(() -> Optional.ofNullable(hangs.get(rule)));
                }
                else if (fire && failing.isEmpty()) {
                    injected.incrementAndGet();
                    failing = Optional.of(rule);
                }
            }
        }
        held.ifPresent(Hang::hold);
        return failing;
    }

    private static IOException failure(Rule rule, Location location)
    {
        String message = "FaultFs: injected %s on %s of %s".formatted(rule.action(), rule.operation(), location);
        if (rule.action() == Action.ALREADY_EXISTS_AFTER_WRITE) {
            FileAlreadyExistsException exception = new FileAlreadyExistsException(location.toString(), null, message);
            exception.initCause(new InjectedFault(message));
            return exception;
        }
        return new InjectedFault(message);
    }

    private static void throwBefore(Optional<Rule> fault, Location location)
            throws IOException
    {
        if (fault.isPresent() && fault.get().action() == Action.THROW_BEFORE) {
            throw failure(fault.get(), location);
        }
    }

    private static void throwAfter(Optional<Rule> fault, Location location)
            throws IOException
    {
        if (fault.isPresent() && (fault.get().action() == Action.THROW_AFTER_WRITE || fault.get().action() == Action.ALREADY_EXISTS_AFTER_WRITE)) {
            throw failure(fault.get(), location);
        }
    }

    private static byte[] content(Optional<Rule> fault, byte[] data)
    {
        if (fault.isPresent() && fault.get().action() == Action.TRUNCATE_TO) {
            return Arrays.copyOf(data, Math.min(data.length, fault.get().truncateTo()));
        }
        return data;
    }

    private final class FaultFileSystem
            implements TrinoFileSystem
    {
        private final TrinoFileSystem delegate;

        FaultFileSystem(TrinoFileSystem delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public TrinoInputFile newInputFile(Location location)
        {
            return new FaultInputFile(delegate.newInputFile(location));
        }

        @Override
        public TrinoInputFile newInputFile(Location location, long length)
        {
            return new FaultInputFile(delegate.newInputFile(location, length));
        }

        @Override
        public TrinoInputFile newInputFile(Location location, long length, Instant lastModified)
        {
            return new FaultInputFile(delegate.newInputFile(location, length, lastModified));
        }

        @Override
        public TrinoOutputFile newOutputFile(Location location)
        {
            return new FaultOutputFile(delegate.newOutputFile(location));
        }

        @Override
        public void deleteFile(Location location)
                throws IOException
        {
            Optional<Rule> fault = fault(Operation.DELETE, location);
            throwBefore(fault, location);
            delegate.deleteFile(location);
            throwAfter(fault, location);
        }

        @Override
        public void deleteFiles(Collection<Location> locations)
                throws IOException
        {
            for (Location location : locations) {
                deleteFile(location);
            }
        }

        @Override
        public void deleteDirectory(Location location)
                throws IOException
        {
            Optional<Rule> fault = fault(Operation.DELETE_DIRECTORY, location);
            throwBefore(fault, location);
            delegate.deleteDirectory(location);
            throwAfter(fault, location);
        }

        @Override
        public void renameFile(Location source, Location target)
                throws IOException
        {
            Optional<Rule> fault = fault(Operation.RENAME, target);
            throwBefore(fault, target);
            delegate.renameFile(source, target);
            throwAfter(fault, target);
        }

        @Override
        public FileIterator listFiles(Location location)
                throws IOException
        {
            Optional<Rule> fault = fault(Operation.LIST, location);
            if (fault.isPresent()) {
                throw failure(fault.get(), location);
            }
            return delegate.listFiles(location);
        }

        @Override
        public Optional<Boolean> directoryExists(Location location)
                throws IOException
        {
            return delegate.directoryExists(location);
        }

        @Override
        public void createDirectory(Location location)
                throws IOException
        {
            delegate.createDirectory(location);
        }

        @Override
        public void renameDirectory(Location source, Location target)
                throws IOException
        {
            delegate.renameDirectory(source, target);
        }

        @Override
        public Set<Location> listDirectories(Location location)
                throws IOException
        {
            return delegate.listDirectories(location);
        }

        @Override
        public Optional<Location> createTemporaryDirectory(Location targetPath, String temporaryPrefix, String relativePrefix)
                throws IOException
        {
            return delegate.createTemporaryDirectory(targetPath, temporaryPrefix, relativePrefix);
        }
    }

    private final class FaultInputFile
            implements TrinoInputFile
    {
        private final TrinoInputFile delegate;

        FaultInputFile(TrinoInputFile delegate)
        {
            this.delegate = delegate;
        }

        private void checkOpen()
                throws IOException
        {
            Optional<Rule> fault = fault(Operation.OPEN, delegate.location());
            if (fault.isPresent()) {
                throw failure(fault.get(), delegate.location());
            }
            opened.add(delegate.location());
        }

        @Override
        public TrinoInput newInput()
                throws IOException
        {
            checkOpen();
            TrinoInput input = delegate.newInput();
            TrinoInput tracked = new TrinoInput()
            {
                @Override
                public void readFully(long position, byte[] buffer, int bufferOffset, int bufferLength)
                        throws IOException
                {
                    input.readFully(position, buffer, bufferOffset, bufferLength);
                }

                @Override
                public int readTail(byte[] buffer, int bufferOffset, int bufferLength)
                        throws IOException
                {
                    return input.readTail(buffer, bufferOffset, bufferLength);
                }

                @Override
                public void close()
                        throws IOException
                {
                    openStreams.remove(this);
                    input.close();
                }
            };
            openStreams.put(tracked, delegate.location());
            return tracked;
        }

        @Override
        public TrinoInputStream newStream()
                throws IOException
        {
            checkOpen();
            TrinoInputStream stream = delegate.newStream();
            TrinoInputStream tracked = new TrinoInputStream()
            {
                @Override
                public long getPosition()
                        throws IOException
                {
                    return stream.getPosition();
                }

                @Override
                public void seek(long position)
                        throws IOException
                {
                    stream.seek(position);
                }

                @Override
                public int read()
                        throws IOException
                {
                    return stream.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length)
                        throws IOException
                {
                    return stream.read(buffer, offset, length);
                }

                @Override
                public long skip(long n)
                        throws IOException
                {
                    return stream.skip(n);
                }

                @Override
                public int available()
                        throws IOException
                {
                    return stream.available();
                }

                @Override
                public void close()
                        throws IOException
                {
                    openStreams.remove(this);
                    stream.close();
                }
            };
            openStreams.put(tracked, delegate.location());
            return tracked;
        }

        @Override
        public long length()
                throws IOException
        {
            return delegate.length();
        }

        @Override
        public Instant lastModified()
                throws IOException
        {
            return delegate.lastModified();
        }

        @Override
        public boolean exists()
                throws IOException
        {
            return delegate.exists();
        }

        @Override
        public Location location()
        {
            return delegate.location();
        }
    }

    private final class FaultOutputFile
            implements TrinoOutputFile
    {
        private final TrinoOutputFile delegate;

        FaultOutputFile(TrinoOutputFile delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public OutputStream create()
                throws IOException
        {
            return create(AggregatedMemoryContext.newSimpleAggregatedMemoryContext());
        }

        @Override
        public OutputStream create(AggregatedMemoryContext memoryContext)
                throws IOException
        {
            Location location = delegate.location();
            Optional<Rule> fault = fault(Operation.CREATE, location);
            throwBefore(fault, location);
            OutputStream stream = delegate.create(memoryContext);
            long limit = fault.filter(rule -> rule.action() == Action.TRUNCATE_TO).map(rule -> (long) rule.truncateTo()).orElse(Long.MAX_VALUE);
            OutputStream tracked = new FilterOutputStream(stream)
            {
                private long written;
                private boolean closed;

                @Override
                public void write(int b)
                        throws IOException
                {
                    if (written++ < limit) {
                        out.write(b);
                    }
                }

                @Override
                public void write(byte[] buffer, int offset, int length)
                        throws IOException
                {
                    long keep = Math.max(0, Math.min(length, limit - written));
                    if (keep > 0) {
                        out.write(buffer, offset, (int) keep);
                    }
                    written += length;
                }

                @Override
                public void close()
                        throws IOException
                {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    openStreams.remove(this);
                    out.close();
                    throwAfter(fault, location);
                }
            };
            openStreams.put(tracked, location);
            return tracked;
        }

        @Override
        public void createOrOverwrite(byte[] data)
                throws IOException
        {
            Location location = delegate.location();
            Optional<Rule> fault = fault(Operation.CREATE_OR_OVERWRITE, location);
            throwBefore(fault, location);
            delegate.createOrOverwrite(content(fault, data));
            throwAfter(fault, location);
        }

        @Override
        public void createExclusive(byte[] data)
                throws IOException
        {
            Location location = delegate.location();
            Optional<Rule> fault = fault(Operation.CREATE_EXCLUSIVE, location);
            throwBefore(fault, location);
            delegate.createExclusive(content(fault, data));
            throwAfter(fault, location);
        }

        @Override
        public Location location()
        {
            return delegate.location();
        }
    }
}
