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
