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

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** An output stream that knows how many bytes went through it: the size of the data file written to it. */
final class CountingOutputStream
        extends FilterOutputStream
{
    private long count;

    CountingOutputStream(OutputStream out)
    {
        super(out);
    }

    @Override
    public void write(int b)
            throws IOException
    {
        out.write(b);
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len)
            throws IOException
    {
        out.write(b, off, len);
        count += len;
    }

    long count()
    {
        return count;
    }
}
