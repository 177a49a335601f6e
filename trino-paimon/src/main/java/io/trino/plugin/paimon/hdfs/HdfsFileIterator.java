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
package io.trino.plugin.paimon.hdfs;

import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A recursive Hadoop listing, each file named under the listed location as the caller spelled it (Hadoop qualifies
 * paths with its own spelling of the authority, which need not be the caller's).
 */
final class HdfsFileIterator
        implements FileIterator
{
    private final Location listed;
    private final String listedPath;
    private final RemoteIterator<LocatedFileStatus> files;

    HdfsFileIterator(Location listed, Path qualifiedListedPath, RemoteIterator<LocatedFileStatus> files)
    {
        this.listed = requireNonNull(listed, "listed is null");
        String path = qualifiedListedPath.toUri().getPath();
        this.listedPath = path.endsWith("/") ? path : path + "/";
        this.files = requireNonNull(files, "files is null");
    }

    @Override
    public boolean hasNext()
            throws IOException
    {
        return files.hasNext();
    }

    @Override
    public FileEntry next()
            throws IOException
    {
        LocatedFileStatus status = files.next();
        String path = status.getPath().toUri().getPath();
        if (!path.startsWith(listedPath)) {
            throw new IOException("Listing of %s returned %s, which is not under it".formatted(listed, status.getPath()));
        }
        Location location = listed.appendPath(path.substring(listedPath.length()));
        return new FileEntry(location, status.getLen(), Instant.ofEpochMilli(status.getModificationTime()), Optional.empty());
    }
}
