package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.spi.session.PropertyMetadata.integerProperty;

/**
 * {@code CREATE TABLE docs (embedding array(real) WITH (dimension = 768))}: the column is a Lance fixed-size list, the
 * vector form every Lance engine indexes and searches.
 */
public final class LanceColumnProperties
{
    public static final String DIMENSION = "dimension";

    private LanceColumnProperties() {}

    public static List<PropertyMetadata<?>> properties()
    {
        return ImmutableList.of(integerProperty(DIMENSION, "Stores an array column as a Lance vector (fixed-size list) of this many elements; every row holds exactly that many", null, false));
    }
}
