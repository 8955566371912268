package io.lancetrino.split.search;

import io.airlift.slice.Slice;
import io.lancetrino.split.LanceColumnHandle;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * A filter the engine pushed into the scan, as a Lance (DataFusion) SQL filter the SDK applies before its top k.
 * Only types whose literals mean the same value in both engines are written: integers, booleans, dates, finite
 * doubles and unbounded varchars. A {@code real} literal is not, as DataFusion would compare it as a double.
 */
public final class LanceSqlFilter
{
    private LanceSqlFilter() {}

    /** The filter, empty when some domain cannot be written; {@code Optional.of("")} never: no filter is {@code TRUE}. */
    public static Optional<String> of(TupleDomain<LanceColumnHandle> constraint)
    {
        if (constraint.isNone()) {
            return Optional.of("FALSE");
        }
        List<String> conjuncts = new ArrayList<>();
        for (Map.Entry<LanceColumnHandle, Domain> entry : constraint.getDomains().orElseThrow().entrySet()) {
            Optional<String> conjunct = domain(entry.getKey(), entry.getValue());
            if (conjunct.isEmpty()) {
                return Optional.empty();
            }
            conjuncts.add(conjunct.get());
        }
        return Optional.of(conjuncts.isEmpty() ? "TRUE" : String.join(" AND ", conjuncts));
    }

    private static Optional<String> domain(LanceColumnHandle column, Domain domain)
    {
        if (column.isRowAddress()) {
            return Optional.empty();
        }
        String name = identifier(column.name());
        if (domain.isAll()) {
            return Optional.of("TRUE");
        }
        if (domain.isNone()) {
            return Optional.of("FALSE");
        }
        if (domain.getValues().isAll()) {
            return Optional.of(name + " IS NOT NULL");
        }
        if (domain.getValues().isNone()) {
            return Optional.of(domain.isNullAllowed() ? name + " IS NULL" : "FALSE");
        }
        List<String> disjuncts = new ArrayList<>();
        List<String> singles = new ArrayList<>();
        for (Range range : domain.getValues().getRanges().getOrderedRanges()) {
            if (range.isSingleValue()) {
                Optional<String> value = literal(column.type(), range.getSingleValue());
                if (value.isEmpty()) {
                    return Optional.empty();
                }
                singles.add(value.get());
                continue;
            }
            List<String> bounds = new ArrayList<>();
            if (!range.isLowUnbounded()) {
                Optional<String> low = literal(column.type(), range.getLowBoundedValue());
                if (low.isEmpty()) {
                    return Optional.empty();
                }
                bounds.add(name + (range.isLowInclusive() ? " >= " : " > ") + low.get());
            }
            if (!range.isHighUnbounded()) {
                Optional<String> high = literal(column.type(), range.getHighBoundedValue());
                if (high.isEmpty()) {
                    return Optional.empty();
                }
                bounds.add(name + (range.isHighInclusive() ? " <= " : " < ") + high.get());
            }
            disjuncts.add(bounds.size() == 1 ? bounds.getFirst() : "(" + String.join(" AND ", bounds) + ")");
        }
        if (singles.size() == 1) {
            disjuncts.add(name + " = " + singles.getFirst());
        }
        else if (!singles.isEmpty()) {
            disjuncts.add(name + " IN (" + String.join(", ", singles) + ")");
        }
        if (domain.isNullAllowed()) {
            disjuncts.add(name + " IS NULL");
        }
        return Optional.of(disjuncts.size() == 1 ? disjuncts.getFirst() : "(" + String.join(" OR ", disjuncts) + ")");
    }

    private static Optional<String> literal(Type type, Object value)
    {
        if (type.equals(BIGINT) || type.equals(INTEGER) || type.equals(SMALLINT) || type.equals(TINYINT)) {
            return Optional.of(Long.toString((Long) value));
        }
        if (type.equals(BOOLEAN)) {
            return Optional.of(((Boolean) value) ? "TRUE" : "FALSE");
        }
        if (type.equals(DATE)) {
            return Optional.of("DATE '" + LocalDate.ofEpochDay((Long) value) + "'");
        }
        if (type.equals(DOUBLE)) {
            double number = (Double) value;
            return Double.isFinite(number) ? Optional.of("CAST(" + Double.toString(number) + " AS DOUBLE)") : Optional.empty();
        }
        if (type.equals(VARCHAR)) {
            return Optional.of("'" + ((Slice) value).toStringUtf8().replace("'", "''") + "'");
        }
        return Optional.empty();
    }

    /** A column name quoted as Lance's SQL parser takes it. */
    public static String identifier(String name)
    {
        return "`" + name.replace("`", "``") + "`";
    }
}
