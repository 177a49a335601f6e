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

import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileIOLoader;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.fs.local.LocalFileIO;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Paimon Java's file IO for {@code s3://bucket/key} paths of an {@link S3Server}: it opens the file S3Proxy keeps for
 * the key in the bucket's folder, so Paimon Java reads and writes the same objects Trino reaches over S3. Paimon's own
 * S3 file IO cannot run here: its Hadoop login calls {@code Subject.getSubject}, which Java 24 and newer refuse.
 * Registered for the {@code s3} scheme by this module's {@code META-INF/services}; a bucket is reachable once
 * {@link #serve} names its folder.
 */
public final class BucketFolderFileIO
        implements FileIO
{
    private static final Map<String, java.nio.file.Path> BUCKET_FOLDERS = new ConcurrentHashMap<>();

    /** Makes the bucket's paths open the files in the folder, until {@link #stopServing}. */
    public static void serve(String bucket, java.nio.file.Path folder)
    {
        BUCKET_FOLDERS.put(requireNonNull(bucket, "bucket is null"), folder.toAbsolutePath());
    }

    public static void stopServing(String bucket)
    {
        BUCKET_FOLDERS.remove(bucket);
    }

    @Override
    public boolean isObjectStore()
    {
        return false;
    }

    @Override
    public void configure(CatalogContext context) {}

    @Override
    public SeekableInputStream newInputStream(Path path)
            throws IOException
    {
        return local().newInputStream(toLocal(path));
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite)
            throws IOException
    {
        return local().newOutputStream(toLocal(path), overwrite);
    }

    @Override
    public FileStatus getFileStatus(Path path)
            throws IOException
    {
        return new BucketFileStatus(local().getFileStatus(toLocal(path)), path);
    }

    @Override
    public FileStatus[] listStatus(Path path)
            throws IOException
    {
        // Paimon finds snapshots, schemas and data files by the names of the listed paths, so they keep the s3 form
        return Arrays.stream(local().listStatus(toLocal(path)))
                .map(status -> new BucketFileStatus(status, new Path(path, status.getPath().getName())))
                .toArray(FileStatus[]::new);
    }

    @Override
    public boolean exists(Path path)
            throws IOException
    {
        return local().exists(toLocal(path));
    }

    @Override
    public boolean delete(Path path, boolean recursive)
            throws IOException
    {
        return local().delete(toLocal(path), recursive);
    }

    @Override
    public boolean mkdirs(Path path)
            throws IOException
    {
        return local().mkdirs(toLocal(path));
    }

    @Override
    public boolean rename(Path source, Path target)
            throws IOException
    {
        return local().rename(toLocal(source), toLocal(target));
    }

    private static LocalFileIO local()
    {
        return LocalFileIO.INSTANCE;
    }

    private static Path toLocal(Path path)
    {
        URI uri = path.toUri();
        checkArgument("s3".equals(uri.getScheme()), "Not an s3 path: %s", path);
        java.nio.file.Path folder = BUCKET_FOLDERS.get(uri.getAuthority());
        checkArgument(folder != null, "No S3Server serves the bucket of %s", path);
        String key = uri.getPath().replaceFirst("^/+", "");
        return new Path(folder.resolve(key).toUri());
    }

    private record BucketFileStatus(FileStatus local, Path path)
            implements FileStatus
    {
        @Override
        public long getLen()
        {
            return local.getLen();
        }

        @Override
        public boolean isDir()
        {
            return local.isDir();
        }

        @Override
        public Path getPath()
        {
            return path;
        }

        @Override
        public long getModificationTime()
        {
            return local.getModificationTime();
        }
    }

    /** The loader Paimon's {@code FileIO.get} finds for the {@code s3} scheme. */
    public static final class Loader
            implements FileIOLoader
    {
        @Override
        public String getScheme()
        {
            return "s3";
        }

        @Override
        public FileIO load(Path path)
        {
            return new BucketFolderFileIO();
        }
    }
}
