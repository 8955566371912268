package io.lancetrino.plugin;

import com.google.common.collect.ImmutableList;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.session.PropertyMetadata.longProperty;
import static io.trino.spi.session.PropertyMetadata.stringProperty;

/**
 * {@code CREATE BRANCH b WITH (...) IN TABLE t}: where the branch starts when it is not the head of a branch, since
 * the SQL's {@code FROM} names only a branch.
 */
public final class LanceBranchProperties
{
    public static final String FROM_VERSION = "from_version";
    public static final String FROM_TAG = "from_tag";

    private LanceBranchProperties() {}

    public static List<PropertyMetadata<?>> properties()
    {
        return ImmutableList.of(
                longProperty(FROM_VERSION, "Version to branch from: of main, or of the branch named by FROM", null, false),
                stringProperty(FROM_TAG, "Tag whose version to branch from", null, false));
    }

    public static OptionalLong fromVersion(Map<String, Object> properties)
    {
        Long version = (Long) properties.get(FROM_VERSION);
        return version == null ? OptionalLong.empty() : OptionalLong.of(version);
    }

    public static Optional<String> fromTag(Map<String, Object> properties)
    {
        return Optional.ofNullable((String) properties.get(FROM_TAG));
    }
}
