package io.lancetrino.plugin.write;

import io.lancetrino.metadata.keys.InsertedKeys;
import io.lancetrino.metadata.keys.InsertedKeysFilter;
import io.lancetrino.metadata.keys.KeyBytes;
import io.lancetrino.metadata.keys.PrimaryKey;
import io.lancetrino.metadata.schema.LanceField;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Gathers the primary key values of the rows a writer inserts, for the transaction's inserted-keys filter.
 */
final class InsertedKeysCollector
{
    private final PrimaryKey key;
    private final List<Integer> channels;
    private final List<Type> types;
    private final InsertedKeysFilter filter = InsertedKeysFilter.empty();
    private final List<Long> hashes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private boolean allHashes = true;

    private InsertedKeysCollector(PrimaryKey key, List<Integer> channels, List<Type> types)
    {
        this.key = key;
        this.channels = channels;
        this.types = types;
    }

    /**
     * A collector for a table with a primary key whose values this connector hashes as lance-core does (integers,
     * strings, binary); empty for any other table.
     *
     * @param fields the table's top-level fields, in the order of the page's channels
     */
    static Optional<InsertedKeysCollector> forTable(List<LanceField> fields)
    {
        Optional<PrimaryKey> key = PrimaryKey.of(fields);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> channels = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        for (LanceField field : key.get().fields()) {
            Optional<Type> type = keyType(field.logicalType());
            if (type.isEmpty()) {
                return Optional.empty();
            }
            channels.add(fields.indexOf(field));
            types.add(type.get());
        }
        return Optional.of(new InsertedKeysCollector(key.get(), channels, types));
    }

    static Optional<Type> keyType(String logicalType)
    {
        return Optional.ofNullable(switch (logicalType) {
            case "int64" -> BIGINT;
            case "int32" -> INTEGER;
            case "int16" -> SMALLINT;
            case "int8" -> TINYINT;
            case "string", "large_string" -> VARCHAR;
            case "binary", "large_binary" -> VARBINARY;
            default -> null;
        });
    }

    /** Adds the key of one row of the page; a key with a NULL part is skipped, as lance-core skips it. */
    void add(Page page, int position)
    {
        List<Object> parts = new ArrayList<>(channels.size());
        for (int i = 0; i < channels.size(); i++) {
            Block block = page.getBlock(channels.get(i));
            if (block.isNull(position)) {
                return;
            }
            parts.add(part(types.get(i), block, position));
        }
        long hash = InsertedKeysFilter.hash(KeyBytes.of(parts));
        filter.addHash(hash);
        if (hashes.size() < InsertedKeys.MAX_HASHES) {
            hashes.add(hash);
        }
        else {
            allHashes = false;
        }
        if (names.size() < InsertedKeys.MAX_NAMES) {
            names.add(name(parts));
        }
    }

    /** A key part as {@link KeyBytes} takes it: integers widened to {@code Long}, strings, binary as bytes. */
    private static Object part(Type type, Block block, int position)
    {
        if (type == VARCHAR) {
            return VARCHAR.getSlice(block, position).toStringUtf8();
        }
        if (type == VARBINARY) {
            return VARBINARY.getSlice(block, position).getBytes();
        }
        // every integer type of a key reads as a long
        return type.getLong(block, position);
    }

    private String name(List<Object> parts)
    {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Object part = parts.get(i);
            String value = part instanceof String text ? "'" + text + "'" : part instanceof byte[] bytes ? "X'" + java.util.HexFormat.of().formatHex(bytes) + "'" : String.valueOf(part);
            pairs.add(key.names().get(i) + "=" + value);
        }
        return pairs.size() == 1 ? pairs.getFirst() : "(" + String.join(", ", pairs) + ")";
    }

    InsertedKeys result()
    {
        return new InsertedKeys(key.fieldIds(), filter.toBytes(), hashes.stream().mapToLong(Long::longValue).toArray(), allHashes, names);
    }
}
