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
package org.apache.paimon.testutils.junit;

import org.junit.jupiter.api.extension.Extension;

/**
 * Stands in for the extension of Paimon's {@code paimon-test-utils} (not served here) that the {@code tests} jar of
 * {@code paimon-core} registers for JUnit's extension auto-detection, which this build enables: without a class of
 * this name every test class would fail to start. It does nothing.
 */
public class TestLoggerExtension
        implements Extension {}
