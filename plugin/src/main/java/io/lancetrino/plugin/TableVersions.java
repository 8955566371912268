package io.lancetrino.plugin;

import io.airlift.slice.Slice;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.RefResolver;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.type.DateType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;

/**
 * {@code FOR VERSION AS OF} and {@code FOR TIMESTAMP AS OF} to a snapshot. Numbers are versions of main; strings are
 * tags, branches ({@code 'main'} included), {@code '<branch>@<version>'}, {@code 'tag:<name>'} or
 * {@code 'branch:<name>'}. An unbounded varchar comes from branch DML ({@code t @ b}) and always names a branch.
 */
final class TableVersions
{
    private TableVersions() {}

    static TableSnapshot resolve(ConnectorSession session, RefResolver resolver, ConnectorTableVersion version)
    {
        Type type = version.getVersionType();
        Object value = version.getVersion();
        return switch (version.getPointerType()) {
            case TARGET_ID -> {
                if (type == TINYINT || type == SMALLINT || type == INTEGER || type == BIGINT) {
                    yield resolver.mainVersion((Long) value);
                }
                if (type instanceof VarcharType varchar) {
                    String spec = ((Slice) value).toStringUtf8();
                    yield varchar.isUnbounded() ? resolver.branchHead(spec) : resolver.resolve(spec);
                }
                throw new TrinoException(NOT_SUPPORTED, "Unsupported type for table version: " + type.getDisplayName());
            }
            case TEMPORAL -> resolver.atOrBefore(toInstant(session, type, value));
        };
    }

    private static Instant toInstant(ConnectorSession session, Type type, Object value)
    {
        if (type == DateType.DATE) {
            return LocalDate.ofEpochDay((Long) value).atStartOfDay(session.getTimeZoneKey().getZoneId()).toInstant();
        }
        if (type instanceof TimestampType timestamp) {
            long micros = timestamp.isShort() ? (Long) value : ((LongTimestamp) value).getEpochMicros();
            LocalDateTime local = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), (int) Math.floorMod(micros, 1_000_000) * 1000, ZoneOffset.UTC);
            return local.atZone(session.getTimeZoneKey().getZoneId()).toInstant();
        }
        if (type instanceof TimestampWithTimeZoneType timestamp) {
            if (timestamp.isShort()) {
                return Instant.ofEpochMilli(unpackMillisUtc((Long) value));
            }
            LongTimestampWithTimeZone longValue = (LongTimestampWithTimeZone) value;
            return Instant.ofEpochMilli(longValue.getEpochMillis()).plusNanos(longValue.getPicosOfMilli() / 1000);
        }
        throw new TrinoException(NOT_SUPPORTED, "Unsupported type for temporal table version: " + type.getDisplayName());
    }
}
