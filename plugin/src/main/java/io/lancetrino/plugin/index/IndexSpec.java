package io.lancetrino.plugin.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.lancetrino.metadata.schema.LanceField;
import io.lancetrino.metadata.schema.LogicalTypes;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;

import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static java.util.Objects.requireNonNull;

/**
 * A checked {@code create_index} request: a kind Lance builds, a column of a type that kind indexes, and options by
 * the names lance-spark users know. Everything is checked before anything is written.
 *
 * @param options option name to its value as JSON text
 */
public record IndexSpec(IndexType type, String column, String name, Map<String, String> options)
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> VECTOR_OPTIONS = ImmutableSet.of("distance_type", "num_partitions", "max_iters", "sample_rate");
    private static final Set<String> TEXT_OPTIONS = ImmutableSet.of("base_tokenizer", "language", "with_position", "lower_case", "stem", "remove_stop_words", "ascii_folding", "max_token_length");

    public IndexSpec
    {
        requireNonNull(type, "type is null");
        requireNonNull(column, "column is null");
        requireNonNull(name, "name is null");
        options = ImmutableMap.copyOf(options);
    }

    /** The kinds {@code create_index} builds, by their SQL names. */
    public enum IndexType
    {
        BTREE(IndexSpec::isOrderedScalar, "numbers, varchar, date or timestamp", ImmutableSet.of("zone_size")),
        BITMAP(type -> isOrderedScalar(type) && !isFloat(type) || type.equals("bool"), "integers, varchar, boolean, date or timestamp", ImmutableSet.of()),
        LABEL_LIST(type -> type.equals("list") || type.equals("large_list"), "array of varchar or integers", ImmutableSet.of()),
        NGRAM(IndexSpec::isString, "varchar", ImmutableSet.of()),
        ZONEMAP(IndexSpec::isOrderedScalar, "numbers, varchar, date or timestamp", ImmutableSet.of("rows_per_zone")),
        INVERTED(IndexSpec::isString, "varchar", TEXT_OPTIONS),
        IVF_FLAT(IndexSpec::isVector, "a vector: array(real) or array(double) of a fixed dimension", VECTOR_OPTIONS),
        IVF_PQ(IndexSpec::isVector, "a vector: array(real) or array(double) of a fixed dimension", union(VECTOR_OPTIONS, "num_sub_vectors", "num_bits")),
        IVF_SQ(IndexSpec::isVector, "a vector: array(real) or array(double) of a fixed dimension", union(VECTOR_OPTIONS, "num_bits")),
        IVF_HNSW_SQ(IndexSpec::isVector, "a vector: array(real) or array(double) of a fixed dimension", union(VECTOR_OPTIONS, "num_bits", "m", "ef_construction"));

        private final Predicate<String> indexes;
        private final String indexableTypes;
        private final Set<String> options;

        IndexType(Predicate<String> indexes, String indexableTypes, Set<String> options)
        {
            this.indexes = indexes;
            this.indexableTypes = indexableTypes;
            this.options = options;
        }

        public String sqlName()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static IndexSpec parse(SchemaTableName table, Optional<LanceField> field, String column, String type, String name, String optionsJson)
    {
        IndexType indexType = Arrays.stream(IndexType.values())
                .filter(candidate -> candidate.sqlName().equals(type.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> invalid("create_index on table %s: unknown index_type '%s'; allowed: %s"
                        .formatted(table, type, String.join(", ", Arrays.stream(IndexType.values()).map(IndexType::sqlName).toList()))));
        LanceField lanceField = field.orElseThrow(() -> invalid("create_index on table %s: column '%s' does not exist".formatted(table, column)));
        if (!indexType.indexes.test(lanceField.logicalType()) || (indexType == IndexType.LABEL_LIST && !isLabelList(lanceField))) {
            throw invalid("create_index on table %s: a %s index cannot index column %s of Lance type %s; it indexes %s"
                    .formatted(table, indexType.sqlName(), column, lanceField.logicalType(), indexType.indexableTypes));
        }
        if (name.isBlank()) {
            throw invalid("create_index on table %s: name must not be blank".formatted(table));
        }
        return new IndexSpec(indexType, lanceField.name(), name, parseOptions(table, indexType, optionsJson));
    }

    private static Map<String, String> parseOptions(SchemaTableName table, IndexType type, String optionsJson)
    {
        JsonNode node;
        try {
            node = JSON.readTree(optionsJson.isBlank() ? "{}" : optionsJson);
        }
        catch (IOException e) {
            throw invalid("create_index on table %s: options must be a JSON object: %s".formatted(table, e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw invalid("create_index on table %s: options must be a JSON object, not %s".formatted(table, optionsJson));
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> entries = node.fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String key = entry.getKey();
            if (!type.options.contains(key)) {
                throw invalid("create_index on table %s: option '%s' does not apply to a %s index; it takes %s"
                        .formatted(table, key, type.sqlName(), type.options.isEmpty() ? "no options" : String.join(", ", type.options.stream().sorted().toList())));
            }
            JsonNode value = entry.getValue();
            checkValue(table, type, key, value);
            options.put(key, value.isTextual() ? value.asText() : value.toString());
        }
        return options;
    }

    private static void checkValue(SchemaTableName table, IndexType type, String key, JsonNode value)
    {
        boolean valid = switch (key) {
            case "distance_type" -> value.isTextual() && Set.of("l2", "cosine", "dot").contains(value.asText().toLowerCase(Locale.ROOT));
            case "base_tokenizer", "language" -> value.isTextual() && !value.asText().isBlank();
            case "with_position", "lower_case", "stem", "remove_stop_words", "ascii_folding" -> value.isBoolean();
            case "num_bits" -> value.canConvertToInt() && value.isIntegralNumber() && (value.asInt() == 8 || (type == IndexType.IVF_PQ && value.asInt() == 4));
            default -> value.isIntegralNumber() && value.canConvertToLong() && value.asLong() > 0;
        };
        if (!valid) {
            String expected = switch (key) {
                case "distance_type" -> "one of 'l2', 'cosine', 'dot'";
                case "base_tokenizer", "language" -> "a string";
                case "with_position", "lower_case", "stem", "remove_stop_words", "ascii_folding" -> "true or false";
                case "num_bits" -> type == IndexType.IVF_PQ ? "4 or 8" : "8";
                default -> "a positive integer";
            };
            throw invalid("create_index on table %s: option %s must be %s, not %s".formatted(table, key, expected, value));
        }
    }

    public Optional<String> option(String key)
    {
        return Optional.ofNullable(options.get(key));
    }

    private static boolean isString(String type)
    {
        return type.equals("string") || type.equals("large_string");
    }

    private static boolean isFloat(String type)
    {
        return type.equals("float") || type.equals("double") || type.equals("halffloat");
    }

    private static boolean isOrderedScalar(String type)
    {
        return type.matches("u?int(8|16|32|64)") || isFloat(type) || isString(type) || type.equals("date32:day") || type.startsWith("timestamp:");
    }

    private static boolean isVector(String type)
    {
        if (!type.startsWith("fixed_size_list:")) {
            return false;
        }
        String element = LogicalTypes.fixedSizeListElement(type);
        return element.equals("float") || element.equals("double") || element.equals("halffloat");
    }

    private static boolean isLabelList(LanceField field)
    {
        return field.children().size() == 1 && (isString(field.children().getFirst().logicalType()) || field.children().getFirst().logicalType().matches("u?int(8|16|32|64)"));
    }

    private static Set<String> union(Set<String> base, String... more)
    {
        return ImmutableSet.<String>builder().addAll(base).add(more).build();
    }

    private static TrinoException invalid(String message)
    {
        return new TrinoException(INVALID_PROCEDURE_ARGUMENT, message);
    }
}
