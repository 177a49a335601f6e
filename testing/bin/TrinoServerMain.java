/**
 * The entry point of a Trino server assembled from Maven artifacts (testing/trino-server/pom.xml), for releases
 * whose server tarball, with its own main class, is not served: Trino's server started under the given version.
 * testing/bin/run-trino runs this file with Java's source launcher, over the server's lib/ class path.
 */
public final class TrinoServerMain
{
    private TrinoServerMain() {}

    public static void main(String[] args)
    {
        new io.trino.server.Server().start(args[0]);
    }
}
