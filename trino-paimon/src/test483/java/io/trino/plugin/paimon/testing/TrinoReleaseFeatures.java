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

/** What the connector can do on the Trino release the tests run on (Trino 483), for tests of those features alone. */
public final class TrinoReleaseFeatures
{
    /** A catalog can switch S3's exclusive create off ({@code s3.exclusive-create}, defunct since Trino 477). */
    public static final boolean S3_EXCLUSIVE_CREATE_OPTIONAL = false;

    private TrinoReleaseFeatures() {}
}
