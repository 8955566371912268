package io.lancetrino.index;

import io.trino.spi.block.Block;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.Type;

import java.util.Optional;

import static com.google.common.base.Preconditions.checkArgument;
import static io.trino.spi.type.TypeUtils.isFloatingPointNaN;
import static io.trino.spi.type.TypeUtils.readNativeValue;
import static java.util.Objects.requireNonNull;

/**
 * A domain tested against values and against the [min, max] summaries of pages and zones, with Trino's semantics:
 * NaN is in a domain only when it allows every value ({@link ValueSet#containsValue}), and a summary bound that is
 * null or NaN bounds nothing.
 */
final class DomainMatcher
{
    private final Type type;
    private final Domain domain;
    private final ValueSet values;

    DomainMatcher(Type type, Domain domain)
    {
        this.type = requireNonNull(type, "type is null");
        this.domain = requireNonNull(domain, "domain is null");
        checkArgument(domain.getType().equals(type), "domain of type %s for an index of type %s", domain.getType(), type);
        this.values = domain.getValues();
    }

    Type type()
    {
        return type;
    }

    boolean nullAllowed()
    {
        return domain.isNullAllowed();
    }

    /** Whether no non-null value is in the domain. */
    boolean noValues()
    {
        return values.isNone();
    }

    /** Whether every non-null value (NaN too) is in the domain. */
    boolean allValues()
    {
        return values.isAll();
    }

    boolean matches(Block block, int position)
    {
        if (block.isNull(position)) {
            return domain.isNullAllowed();
        }
        return values.containsValue(readNativeValue(type, block, position));
    }

    /** Whether a value of {@code [min, max]} (null or NaN bounds meaning unbounded) may be in the domain. */
    boolean mayMatch(Object min, Object max)
    {
        if (values.isNone()) {
            return false;
        }
        if (values.isAll()) {
            return true;
        }
        return range(min, max).map(range -> values.overlaps(ValueSet.ofRanges(range))).orElse(true);
    }

    /** Whether every value of {@code [min, max]} is in the domain; false when a bound is unknown. */
    boolean coversAll(Object min, Object max)
    {
        if (values.isAll()) {
            return true;
        }
        if (min == null || max == null || isFloatingPointNaN(type, min) || isFloatingPointNaN(type, max)) {
            return false;
        }
        return range(min, max).map(range -> values.contains(ValueSet.ofRanges(range))).orElse(false);
    }

    private Optional<Range> range(Object min, Object max)
    {
        boolean lowBounded = min != null && !isFloatingPointNaN(type, min);
        boolean highBounded = max != null && !isFloatingPointNaN(type, max);
        try {
            if (lowBounded && highBounded) {
                return Optional.of(Range.range(type, min, true, max, true));
            }
            if (lowBounded) {
                return Optional.of(Range.greaterThanOrEqual(type, min));
            }
            if (highBounded) {
                return Optional.of(Range.lessThanOrEqual(type, max));
            }
            return Optional.of(Range.all(type));
        }
        catch (IllegalArgumentException e) {
            // min above max in a damaged summary: it bounds nothing
            return Optional.empty();
        }
    }

    Object value(Block block, int position)
    {
        return readNativeValue(type, block, position);
    }
}
