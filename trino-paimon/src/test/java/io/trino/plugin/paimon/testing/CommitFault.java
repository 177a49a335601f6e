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

import io.trino.plugin.paimon.testing.FaultFs.Action;
import io.trino.plugin.paimon.testing.FaultFs.Operation;
import io.trino.plugin.paimon.testing.FaultFs.Rule;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A file system failure at one step of a write's commit (reliability.md T6) and what the statement must do about it:
 * fail naming the file when the snapshot was not published, succeed with its rows there once when it was (or when
 * only the {@code LATEST} hint failed).
 *
 * @param step the commit step, as the test plan names it
 * @param succeeds whether the statement must succeed despite the failure
 * @param pathInMessage a part of the failed file's path that the error must name, when it fails
 */
public record CommitFault(String step, Rule rule, boolean succeeds, String pathInMessage)
{
    /** One failure at each step of a commit that writes data files of a fixed-bucket table: S0–S3, S5, S6. */
    public static final List<CommitFault> STEPS = List.of(
            new CommitFault("S0 data file create", Rule.nth(Operation.CREATE, "**/bucket-*/data-*", 1, Action.THROW_BEFORE), false, "/bucket-"),
            new CommitFault("S0 data file close", Rule.nth(Operation.CREATE, "**/bucket-*/data-*", 1, Action.THROW_AFTER_WRITE), false, "/bucket-"),
            new CommitFault("S1 manifest", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/manifest/manifest-[!l]*", 1, Action.THROW_BEFORE), false, "/manifest/manifest-"),
            new CommitFault("S1 manifest written", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/manifest/manifest-[!l]*", 1, Action.THROW_AFTER_WRITE), false, "/manifest/manifest-"),
            new CommitFault("S3 base manifest list", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/manifest/manifest-list-*", 1, Action.THROW_BEFORE), false, "/manifest/manifest-list-"),
            new CommitFault("S2 delta manifest list", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/manifest/manifest-list-*", 2, Action.THROW_AFTER_WRITE), false, "/manifest/manifest-list-"),
            new CommitFault("S5 snapshot temporary file", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/snapshot/.snapshot-*", 1, Action.THROW_BEFORE), false, "/snapshot/"),
            new CommitFault("S5 publish", Rule.nth(Operation.RENAME, "**/snapshot/snapshot-*", 1, Action.THROW_BEFORE), false, "/snapshot/snapshot-"),
            new CommitFault("S5 publish lands, reports failure", Rule.nth(Operation.RENAME, "**/snapshot/snapshot-*", 1, Action.THROW_AFTER_WRITE), true, ""),
            new CommitFault("S5 publish lands, reports existing", Rule.nth(Operation.RENAME, "**/snapshot/snapshot-*", 1, Action.ALREADY_EXISTS_AFTER_WRITE), true, ""),
            new CommitFault("S6 LATEST hint", Rule.nth(Operation.CREATE_OR_OVERWRITE, "**/snapshot/LATEST", 1, Action.THROW_BEFORE), true, ""));

    public CommitFault
    {
        requireNonNull(step, "step is null");
        requireNonNull(rule, "rule is null");
        requireNonNull(pathInMessage, "pathInMessage is null");
    }
}
