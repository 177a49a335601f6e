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
package io.trino.plugin.paimon.format.schema;

import com.google.common.collect.ImmutableList;
import io.trino.plugin.paimon.format.InvalidMetadataException;
import io.trino.plugin.paimon.format.schema.DataType.ArrayType;
import io.trino.plugin.paimon.format.schema.DataType.BigIntType;
import io.trino.plugin.paimon.format.schema.DataType.BinaryType;
import io.trino.plugin.paimon.format.schema.DataType.BlobType;
import io.trino.plugin.paimon.format.schema.DataType.BooleanType;
import io.trino.plugin.paimon.format.schema.DataType.CharType;
import io.trino.plugin.paimon.format.schema.DataType.DateType;
import io.trino.plugin.paimon.format.schema.DataType.DecimalType;
import io.trino.plugin.paimon.format.schema.DataType.DoubleType;
import io.trino.plugin.paimon.format.schema.DataType.FloatType;
import io.trino.plugin.paimon.format.schema.DataType.IntType;
import io.trino.plugin.paimon.format.schema.DataType.LocalZonedTimestampType;
import io.trino.plugin.paimon.format.schema.DataType.MapType;
import io.trino.plugin.paimon.format.schema.DataType.MultisetType;
import io.trino.plugin.paimon.format.schema.DataType.RowType;
import io.trino.plugin.paimon.format.schema.DataType.SmallIntType;
import io.trino.plugin.paimon.format.schema.DataType.TimeType;
import io.trino.plugin.paimon.format.schema.DataType.TimestampType;
import io.trino.plugin.paimon.format.schema.DataType.TinyIntType;
import io.trino.plugin.paimon.format.schema.DataType.VarBinaryType;
import io.trino.plugin.paimon.format.schema.DataType.VarCharType;
import io.trino.plugin.paimon.format.schema.DataType.VariantType;
import io.trino.plugin.paimon.format.schema.DataType.VectorType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.lang.Character.isDigit;
import static java.lang.Character.isLetterOrDigit;
import static java.lang.Character.isWhitespace;
import static java.util.Locale.ENGLISH;
import static java.util.Objects.requireNonNull;

/**
 * Parses Paimon's SQL-like type strings ({@code DECIMAL(20, 2) NOT NULL}, {@code TIMESTAMP(3) WITH LOCAL TIME ZONE},
 * {@code ARRAY<INT>}, {@code ROW<`a` INT COMMENT 'first', b STRING>}, ...), the atomic part of the schema-file type grammar.
 * Keywords are case-insensitive and the aliases Paimon's own parser takes are accepted.
 */
public final class DataTypeParser
{
    private final String text;
    private final List<Token> tokens;
    private int position;

    private DataTypeParser(String text)
    {
        this.text = text;
        this.tokens = tokenize(text);
    }

    /**
     * @throws InvalidMetadataException if the text is not a Paimon type
     */
    public static DataType parse(String text)
    {
        requireNonNull(text, "text is null");
        DataTypeParser parser = new DataTypeParser(text);
        DataType type;
        try {
            type = parser.parseType();
        }
        catch (IllegalArgumentException e) {
            // a length, precision or scale out of Paimon's range
            throw parser.error(e.getMessage());
        }
        if (parser.position != parser.tokens.size()) {
            throw parser.error("unexpected '%s'".formatted(parser.tokens.get(parser.position).text()));
        }
        return type;
    }

    /**
     * Parses the {@code type} member of a composite type's JSON object: {@code ARRAY}, {@code MAP NOT NULL}, ...
     * Returns the keyword and whether it is nullable.
     */
    public static CompositeHeader parseCompositeHeader(String text)
    {
        DataTypeParser parser = new DataTypeParser(requireNonNull(text, "text is null"));
        String keyword = parser.nextKeyword();
        boolean nullable = parser.parseNullability();
        if (parser.position != parser.tokens.size()) {
            throw parser.error("unexpected '%s'".formatted(parser.tokens.get(parser.position).text()));
        }
        return new CompositeHeader(keyword, nullable);
    }

    public record CompositeHeader(String keyword, boolean nullable)
    {
        public CompositeHeader
        {
            requireNonNull(keyword, "keyword is null");
        }
    }

    private DataType parseType()
    {
        DataType type = parseTypeWithoutNullability();
        return type.withNullable(parseNullability());
    }

    private boolean parseNullability()
    {
        if (acceptKeyword("NOT")) {
            expectKeyword("NULL");
            return false;
        }
        acceptKeyword("NULL");
        return true;
    }

    private DataType parseTypeWithoutNullability()
    {
        String keyword = nextKeyword();
        return switch (keyword) {
            case "BOOLEAN" -> new BooleanType(true);
            case "TINYINT" -> new TinyIntType(true);
            case "SMALLINT" -> new SmallIntType(true);
            case "INT", "INTEGER" -> new IntType(true);
            case "BIGINT" -> new BigIntType(true);
            case "FLOAT" -> new FloatType(true);
            case "DOUBLE" -> {
                acceptKeyword("PRECISION");
                yield new DoubleType(true);
            }
            case "DECIMAL", "DEC", "NUMERIC" -> parseDecimal();
            case "CHAR" -> new CharType(true, optionalLength(1));
            case "VARCHAR" -> new VarCharType(true, optionalLength(1));
            case "STRING" -> new VarCharType(true, DataType.MAX_LENGTH);
            case "BINARY" -> new BinaryType(true, optionalLength(1));
            case "VARBINARY" -> new VarBinaryType(true, optionalLength(1));
            case "BYTES" -> new VarBinaryType(true, DataType.MAX_LENGTH);
            case "DATE" -> new DateType(true);
            case "TIME" -> {
                int precision = optionalLength(0);
                if (acceptKeyword("WITHOUT")) {
                    expectKeyword("TIME");
                    expectKeyword("ZONE");
                }
                yield new TimeType(true, precision);
            }
            case "TIMESTAMP" -> parseTimestamp();
            case "TIMESTAMP_LTZ" -> new LocalZonedTimestampType(true, optionalLength(6));
            case "VARIANT" -> new VariantType(true);
            case "BLOB" -> new BlobType(true);
            case "ARRAY" -> {
                expectSymbol("<");
                DataType element = parseType();
                expectSymbol(">");
                yield new ArrayType(true, element);
            }
            case "VECTOR" -> {
                expectSymbol("<");
                DataType element = parseType();
                expectSymbol(",");
                int length = nextInteger();
                expectSymbol(">");
                yield new VectorType(true, element, length);
            }
            case "MULTISET" -> {
                expectSymbol("<");
                DataType element = parseType();
                expectSymbol(">");
                yield new MultisetType(true, element);
            }
            case "MAP" -> {
                expectSymbol("<");
                DataType key = parseType();
                expectSymbol(",");
                DataType value = parseType();
                expectSymbol(">");
                yield new MapType(true, key, value);
            }
            case "ROW" -> parseRow();
            default -> throw error("unknown type '%s'".formatted(keyword));
        };
    }

    private DataType parseDecimal()
    {
        int precision = 10;
        int scale = 0;
        if (acceptSymbol("(")) {
            precision = nextInteger();
            if (acceptSymbol(",")) {
                scale = nextInteger();
            }
            expectSymbol(")");
        }
        return new DecimalType(true, precision, scale);
    }

    private DataType parseTimestamp()
    {
        int precision = optionalLength(6);
        if (acceptKeyword("WITH")) {
            expectKeyword("LOCAL");
            expectKeyword("TIME");
            expectKeyword("ZONE");
            return new LocalZonedTimestampType(true, precision);
        }
        if (acceptKeyword("WITHOUT")) {
            expectKeyword("TIME");
            expectKeyword("ZONE");
        }
        return new TimestampType(true, precision);
    }

    // ROW<name type ['description'], ...> (also ROW(...)); string-form fields get ids 0..n-1, as in Paimon's parser
    private DataType parseRow()
    {
        String close;
        if (acceptSymbol("<")) {
            close = ">";
        }
        else {
            expectSymbol("(");
            close = ")";
        }
        ImmutableList.Builder<DataField> fields = ImmutableList.builder();
        int id = 0;
        if (!acceptSymbol(close)) {
            do {
                String name = nextIdentifier();
                acceptSymbol(":");
                DataType type = parseType();
                Optional<String> description = Optional.empty();
                acceptKeyword("COMMENT");
                if (peek() != null && peek().kind() == TokenKind.STRING) {
                    description = Optional.of(tokens.get(position++).text());
                }
                fields.add(new DataField(id++, name, type, description, Optional.empty()));
            }
            while (acceptSymbol(","));
            expectSymbol(close);
        }
        return new RowType(true, fields.build());
    }

    private int optionalLength(int defaultValue)
    {
        if (!acceptSymbol("(")) {
            return defaultValue;
        }
        int value = nextInteger();
        expectSymbol(")");
        return checkedLength(value);
    }

    private int checkedLength(int value)
    {
        if (value < 0) {
            throw error("negative length or precision");
        }
        return value;
    }

    private Token peek()
    {
        return position < tokens.size() ? tokens.get(position) : null;
    }

    private String nextKeyword()
    {
        Token token = peek();
        if (token == null || token.kind() != TokenKind.WORD) {
            throw error("expected a type name");
        }
        position++;
        return token.text().toUpperCase(ENGLISH);
    }

    private String nextIdentifier()
    {
        Token token = peek();
        if (token == null || (token.kind() != TokenKind.WORD && token.kind() != TokenKind.QUOTED_IDENTIFIER)) {
            throw error("expected a field name");
        }
        position++;
        return token.text();
    }

    private int nextInteger()
    {
        Token token = peek();
        if (token == null || token.kind() != TokenKind.NUMBER) {
            throw error("expected a number");
        }
        position++;
        try {
            return Integer.parseInt(token.text());
        }
        catch (NumberFormatException e) {
            throw error("number out of range: " + token.text());
        }
    }

    private boolean acceptKeyword(String keyword)
    {
        Token token = peek();
        if (token != null && token.kind() == TokenKind.WORD && token.text().equalsIgnoreCase(keyword)) {
            position++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword)
    {
        if (!acceptKeyword(keyword)) {
            throw error("expected " + keyword);
        }
    }

    private boolean acceptSymbol(String symbol)
    {
        Token token = peek();
        if (token != null && token.kind() == TokenKind.SYMBOL && token.text().equals(symbol)) {
            position++;
            return true;
        }
        return false;
    }

    private void expectSymbol(String symbol)
    {
        if (!acceptSymbol(symbol)) {
            throw error("expected '%s'".formatted(symbol));
        }
    }

    private InvalidMetadataException error(String message)
    {
        return new InvalidMetadataException("Invalid Paimon type '%s': %s".formatted(text, message));
    }

    private enum TokenKind
    {
        WORD, NUMBER, SYMBOL, QUOTED_IDENTIFIER, STRING
    }

    private record Token(TokenKind kind, String text) {}

    private static List<Token> tokenize(String text)
    {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (isWhitespace(c)) {
                i++;
            }
            else if (isDigit(c)) {
                int start = i;
                while (i < text.length() && isDigit(text.charAt(i))) {
                    i++;
                }
                tokens.add(new Token(TokenKind.NUMBER, text.substring(start, i)));
            }
            else if (isLetterOrDigit(c) || c == '_' || c == '$') {
                int start = i;
                while (i < text.length() && (isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_' || text.charAt(i) == '$')) {
                    i++;
                }
                tokens.add(new Token(TokenKind.WORD, text.substring(start, i)));
            }
            else if (c == '`' || c == '\'') {
                // quoted identifier or string literal; a doubled quote stands for itself
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= text.length()) {
                        throw new InvalidMetadataException("Invalid Paimon type '%s': unterminated %s".formatted(text, c == '`' ? "identifier" : "string"));
                    }
                    char next = text.charAt(i);
                    if (next == c) {
                        if (i + 1 < text.length() && text.charAt(i + 1) == c) {
                            value.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    value.append(next);
                    i++;
                }
                tokens.add(new Token(c == '`' ? TokenKind.QUOTED_IDENTIFIER : TokenKind.STRING, value.toString()));
            }
            else if ("<>(),:".indexOf(c) >= 0) {
                tokens.add(new Token(TokenKind.SYMBOL, String.valueOf(c)));
                i++;
            }
            else {
                throw new InvalidMetadataException("Invalid Paimon type '%s': unexpected character '%s'".formatted(text, c));
            }
        }
        return tokens;
    }
}
