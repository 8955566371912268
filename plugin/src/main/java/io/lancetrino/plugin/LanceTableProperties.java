package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.type.ArrayType;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static io.trino.spi.session.PropertyMetadata.integerProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;

/**
 * {@code CREATE TABLE ... WITH (file_format_version = '2.0', max_rows_per_file = 100000, compression = 'lz4')}.
 */
public final class LanceTableProperties
{
    public static final String FILE_FORMAT_VERSION = "file_format_version";
    public static final String MAX_ROWS_PER_FILE = "max_rows_per_file";
    // Lance's stable format since Aug 2026; measured: the smallest files at which every benchmark query stays at or
    // below Iceberg's time (docs/benchmark.md)
    public static final String DEFAULT_FILE_FORMAT_VERSION = "2.2";
    // what the Lance SDK 7.0 writes by default, assumed for tables whose manifest records no format version
    public static final String SDK_DEFAULT_FILE_FORMAT_VERSION = "2.1";
    public static final int DEFAULT_MAX_ROWS_PER_FILE = 1024 * 1024;
    public static final String COMPRESSION = "compression";
    // measured: zstd on strings only, the smallest files at which every benchmark query stays at Iceberg's time
    public static final String DEFAULT_COMPRESSION = "auto";
    private static final Set<String> COMPRESSIONS = Set.of("auto", "zstd", "lz4", "none");
    public static final String STRING_COMPRESSION_LEVEL = "string_compression_level";
    public static final String PRIMARY_KEY = "primary_key";
    private static final Set<String> ZSTD_COMPRESSIONS = Set.of("auto", "zstd");
    public static final Set<String> WRITABLE_FORMAT_VERSIONS = Set.of("2.0", "2.1", "2.2");

    private LanceTableProperties() {}

    public static List<PropertyMetadata<?>> properties()
    {
        return ImmutableList.of(
                stringProperty(FILE_FORMAT_VERSION, "Lance data file format version: 2.2 (default, Lance's stable format), 2.1 for engines that append with the Lance SDK 7.0's default 2.1 files, or 2.0 for older readers", DEFAULT_FILE_FORMAT_VERSION, false),
                integerProperty(MAX_ROWS_PER_FILE, "Rows per data file; each file becomes one fragment", DEFAULT_MAX_ROWS_PER_FILE, false),
                stringProperty(COMPRESSION, "General compression Lance applies to column data after its encodings: auto (default: zstd for string and binary columns in format 2.2, none otherwise), zstd, lz4 or none", DEFAULT_COMPRESSION, false),
                integerProperty(STRING_COMPRESSION_LEVEL, "zstd level of varchar and varbinary columns, 1 to 22 (unset: 9); 14 and above make text about a quarter smaller and its writes about 5x slower", null, false),
                new PropertyMetadata<>(
                        PRIMARY_KEY,
                        "Columns of Lance's unenforced primary key, in key order: NOT NULL integer, varchar or varbinary columns; concurrent upserts of the same new key never both commit",
                        new ArrayType(VARCHAR),
                        List.class,
                        List.of(),
                        false,
                        value -> ((List<?>) value).stream().map(name -> ((String) name).toLowerCase(Locale.ROOT)).toList(),
                        value -> value));
    }

    @SuppressWarnings("unchecked")
    public static List<String> primaryKey(Map<String, Object> properties)
    {
        return (List<String>) properties.getOrDefault(PRIMARY_KEY, List.of());
    }

    public static String fileFormatVersion(Map<String, Object> properties)
    {
        String version = (String) properties.getOrDefault(FILE_FORMAT_VERSION, DEFAULT_FILE_FORMAT_VERSION);
        if (!WRITABLE_FORMAT_VERSIONS.contains(version)) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, "%s must be one of %s, not '%s'".formatted(FILE_FORMAT_VERSION, WRITABLE_FORMAT_VERSIONS.stream().sorted().toList(), version));
        }
        return version;
    }

    public static int maxRowsPerFile(Map<String, Object> properties)
    {
        int rows = (Integer) properties.getOrDefault(MAX_ROWS_PER_FILE, DEFAULT_MAX_ROWS_PER_FILE);
        if (rows < 1) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, "%s must be positive, not %s".formatted(MAX_ROWS_PER_FILE, rows));
        }
        return rows;
    }

    /**
     * The compression policy; Lance reads the compression from the {@code lance-encoding:compression} metadata of each
     * field, so it is part of the table schema and applies to every later write by any engine.
     */
    /**
     * The zstd level of the table's strings and binaries, if set: kept on those fields as Lance's
     * {@code lance-encoding:compression-level}, so every Lance writer applies it. Needs zstd ({@code auto} or
     * {@code zstd}).
     */
    public static Optional<Integer> stringCompressionLevel(Map<String, Object> properties, String compression)
    {
        Integer level = (Integer) properties.get(STRING_COMPRESSION_LEVEL);
        if (level == null) {
            return Optional.empty();
        }
        if (level < 1 || level > 22) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, "%s must be a zstd level from 1 to 22, not %s".formatted(STRING_COMPRESSION_LEVEL, level));
        }
        if (!ZSTD_COMPRESSIONS.contains(compression)) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, "%s needs %s 'auto' or 'zstd', not '%s'".formatted(STRING_COMPRESSION_LEVEL, COMPRESSION, compression));
        }
        return Optional.of(level);
    }

    public static String compression(Map<String, Object> properties)
    {
        String compression = ((String) properties.getOrDefault(COMPRESSION, DEFAULT_COMPRESSION)).toLowerCase(Locale.ROOT);
        if (!COMPRESSIONS.contains(compression)) {
            throw new TrinoException(INVALID_TABLE_PROPERTY, "%s must be one of %s, not '%s'".formatted(COMPRESSION, COMPRESSIONS.stream().sorted().toList(), compression));
        }
        return compression;
    }
}
