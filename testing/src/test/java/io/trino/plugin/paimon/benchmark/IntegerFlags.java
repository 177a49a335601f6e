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
package io.trino.plugin.paimon.benchmark;

import java.util.LinkedHashMap;
import java.util.Map;

/** A benchmark's whole-number flags, {@code --name=value}, each with its default; any other argument is refused. */
final class IntegerFlags
{
    private final Map<String, Integer> values;

    private IntegerFlags(Map<String, Integer> values)
    {
        this.values = values;
    }

    static IntegerFlags parse(String[] args, Map<String, Integer> defaults)
    {
        Map<String, Integer> values = new LinkedHashMap<>(defaults);
        for (String arg : args) {
            int equals = arg.indexOf('=');
            String name = arg.startsWith("--") && equals > 2 ? arg.substring(2, equals) : null;
            if (name == null || !defaults.containsKey(name)) {
                throw new IllegalArgumentException("unknown argument: %s (flags: %s)".formatted(arg, defaults.keySet()));
            }
            values.put(name, Integer.parseInt(arg.substring(equals + 1)));
        }
        return new IntegerFlags(values);
    }

    int get(String name)
    {
        Integer value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no flag " + name);
        }
        return value;
    }
}
