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
package io.trino.plugin.paimon.write;

import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The stream between Trino's Parquet writer and the data file: passes the bytes on as they come, and reads the page
 * headers among them to learn where each page lies, which Trino's writer does not tell. Once told how many values
 * the file's data pages hold in all (its rows times its columns, none of them repeated), it knows where the data ends
 * and holds back what follows (the writer's footer), so that the column and offset indexes can go before a footer
 * that points at them ({@link ParquetPageIndexes}). It needs no row group's bounds, which not every release of
 * Trino's writer tells.
 * <p>
 * A header that cannot be read stops the locating: every byte then passes on unchanged, and the file is the
 * writer's, without page indexes.
 */
final class ParquetPageLocator
        extends OutputStream
{
    // a page header without statistics takes a few dozen bytes; Trino's writer puts no statistics in page headers
    private static final int MAX_HEADER_BYTES = 64 * 1024;
    private static final int MAGIC_BYTES = 4;

    private final OutputStream output;
    private final List<Page> pages = new ArrayList<>();
    private final GrowingBuffer header = new GrowingBuffer();
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();

    private long position;
    private long nextHeader = MAGIC_BYTES;
    private boolean failed;

    // the values of the data pages read so far, and of all of them once the writer is about to end the file
    private long values;
    private long expectedValues = -1;
    private long heldFrom = -1;

    /** A page as it lies in the file: where its header starts, its size with the header, its values. */
    record Page(long offset, int size, boolean dictionary, long values) {}

    ParquetPageLocator(OutputStream output)
    {
        this.output = requireNonNull(output, "output is null");
    }

    /**
     * The writer is about to write its last row group and its footer, its data pages holding {@code values} values in
     * all: once the pages read hold that many, the bytes that follow are held back.
     */
    void expectValues(long values)
    {
        if (values <= 0) {
            // a file without rows has no page to count off: it keeps the writer's footer
            failed = true;
            return;
        }
        this.expectedValues = values;
    }

    /** The pages located, in file order; empty when locating failed. */
    List<Page> pages()
    {
        return failed ? List.of() : pages;
    }

    /** Where the held back bytes start, or -1 when none were held. */
    long heldFrom()
    {
        return failed ? -1 : heldFrom;
    }

    /** Bytes passed on so far. */
    long position()
    {
        return position;
    }

    /** Passes the held back bytes on unchanged: the file ends as the writer ended it. */
    void releaseHeld()
            throws IOException
    {
        held.writeTo(output);
        position += held.size();
        held.reset();
    }

    /** Drops the held back bytes: the caller writes another ending. */
    void dropHeld()
    {
        held.reset();
    }

    /** Writes bytes of the caller's own (indexes, footer) after the data. */
    void append(byte[] bytes)
            throws IOException
    {
        output.write(bytes);
        position += bytes.length;
    }

    @Override
    public void write(int b)
            throws IOException
    {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length)
            throws IOException
    {
        while (length > 0) {
            if (heldFrom >= 0) {
                held.write(bytes, offset, length);
                return;
            }
            if (failed) {
                pass(bytes, offset, length);
                return;
            }
            if (position < nextHeader) {
                int skipped = (int) Math.min(length, nextHeader - position);
                pass(bytes, offset, skipped);
                offset += skipped;
                length -= skipped;
                continue;
            }
            if (header.size() == 0 && expectedValues >= 0 && values >= expectedValues) {
                heldFrom = position;
                continue;
            }
            int taken = Math.min(length, 256);
            int before = header.size();
            header.write(bytes, offset, taken);
            int headerLength = readHeader();
            if (headerLength < 0) {
                pass(bytes, offset, taken);
                offset += taken;
                length -= taken;
                if (header.size() > MAX_HEADER_BYTES) {
                    failed = true;
                }
                continue;
            }
            int headerBytesHere = headerLength - before;
            pass(bytes, offset, headerBytesHere);
            offset += headerBytesHere;
            length -= headerBytesHere;
        }
    }

    // the length of the header in the buffer once it is whole, else -1; records the page and where the next one starts
    private int readHeader()
    {
        HeaderInput input = new HeaderInput(header.bytes(), header.size());
        PageHeader pageHeader;
        try {
            pageHeader = Util.readPageHeader(input);
        }
        catch (IOException | RuntimeException _) {
            // not whole yet: more bytes are needed (or the header is broken, which the size limit ends)
            return -1;
        }
        int headerLength = input.consumed();
        header.reset();
        long headerStart = nextHeader;
        boolean dictionary = pageHeader.getType() == PageType.DICTIONARY_PAGE;
        long pageValues;
        if (pageHeader.isSetData_page_header()) {
            pageValues = pageHeader.getData_page_header().getNum_values();
        }
        else if (pageHeader.isSetData_page_header_v2()) {
            pageValues = pageHeader.getData_page_header_v2().getNum_values();
        }
        else if (dictionary) {
            pageValues = 0;
        }
        else {
            failed = true;
            return headerLength;
        }
        int size = headerLength + pageHeader.getCompressed_page_size();
        pages.add(new Page(headerStart, size, dictionary, pageValues));
        nextHeader = headerStart + size;
        values += pageValues;
        return headerLength;
    }

    private void pass(byte[] bytes, int offset, int length)
            throws IOException
    {
        output.write(bytes, offset, length);
        position += length;
    }

    @Override
    public void flush()
            throws IOException
    {
        output.flush();
    }

    // the writer closes its stream after its footer; the caller finishes the file and closes the output
    @Override
    public void close() {}

    private static final class GrowingBuffer
    {
        private byte[] bytes = new byte[64];
        private int size;

        void write(byte[] source, int offset, int length)
        {
            if (size + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
            }
            System.arraycopy(source, offset, bytes, size, length);
            size += length;
        }

        byte[] bytes()
        {
            return bytes;
        }

        int size()
        {
            return size;
        }

        void reset()
        {
            size = 0;
        }
    }

    private static final class HeaderInput
            extends ByteArrayInputStream
    {
        HeaderInput(byte[] bytes, int length)
        {
            super(bytes, 0, length);
        }

        int consumed()
        {
            return pos;
        }
    }
}
