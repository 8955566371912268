package io.lancetrino.sharing.server;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.refs.BranchRef;
import io.lancetrino.metadata.refs.RefResolver;
import io.lancetrino.metadata.refs.TagRef;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One shared table and what its share allows: without {@code refs} every version of main and of every branch (from
 * {@code startVersion} on) and every tag pointing to one; with {@code refs}, main's versions only if {@code main} is
 * listed, the versions of the listed branches, and exactly the version of each listed tag. Refs are read on every
 * request, so a moved tag moves what the share allows.
 */
public final class SharedTable
{
    private final String share;
    private final String schema;
    private final SharingConfig.Table config;
    private final LanceTable table;

    public SharedTable(String share, String schema, SharingConfig.Table config, LanceTable table)
    {
        this.share = requireNonNull(share, "share is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.config = requireNonNull(config, "config is null");
        this.table = requireNonNull(table, "table is null");
    }

    public String share()
    {
        return share;
    }

    public String schema()
    {
        return schema;
    }

    public String name()
    {
        return config.name();
    }

    public LanceTable table()
    {
        return table;
    }

    /**
     * The table's branch for a requested name (case-insensitive), empty for main. A branch that does not exist, and one
     * the share does not allow (neither listed nor holding a listed tag), answer the same "Branch not found", so a
     * recipient cannot learn the owner's branch names.
     */
    public Optional<String> branch(Optional<String> requested)
    {
        if (requested.isEmpty()) {
            return Optional.empty();
        }
        String name = Names.branch(requested.get());
        if (name.equals(RefResolver.MAIN)) {
            return Optional.empty();
        }
        return table.refs().listBranches().stream()
                .map(BranchRef::name)
                .filter(branch -> branch.toLowerCase(Locale.ROOT).equals(name))
                .findFirst()
                .map(Optional::of)
                .filter(this::visible)
                .orElseThrow(() -> SharingException.notFound("Branch not found"));
    }

    private boolean visible(Optional<String> branch)
    {
        return branchAllowed(branch) || (config.refs().isPresent() && allowedTags().stream().anyMatch(tag -> RefResolver.branch(tag.branch()).equals(branch)));
    }

    /**
     * Whether a version comes before the share's {@code startVersion}.
     */
    public boolean beforeStart(long version)
    {
        return version < config.startVersion().orElse(1);
    }

    public boolean allowed(Optional<String> branch, long version)
    {
        return allowed(branch, version, config.refs().isPresent() ? allowedTags() : List.of());
    }

    // the tags are read once per request, not once per version
    private boolean allowed(Optional<String> branch, long version, List<TagRef> tags)
    {
        if (branchAllowed(branch) && version >= config.startVersion().orElse(1)) {
            return true;
        }
        return config.refs().isPresent() && tags.stream()
                .anyMatch(tag -> RefResolver.branch(tag.branch()).equals(branch) && tag.version() == version);
    }

    private boolean branchAllowed(Optional<String> branch)
    {
        Optional<Set<String>> refs = config.refs();
        return refs.isEmpty() || refs.get().contains(branch.map(name -> name.toLowerCase(Locale.ROOT)).orElse(RefResolver.MAIN));
    }

    public List<Long> allowedVersions(Optional<String> branch)
    {
        List<TagRef> tags = config.refs().isPresent() ? allowedTags() : List.of();
        return table.listVersions(branch).stream()
                .filter(version -> allowed(branch, version, tags))
                .collect(ImmutableList.toImmutableList());
    }

    public TableSnapshot latest(Optional<String> branch)
    {
        List<Long> versions = allowedVersions(branch);
        if (versions.isEmpty()) {
            throw SharingException.notFound("No version of this table is shared");
        }
        return table.snapshot(branch, versions.getLast());
    }

    public TableSnapshot version(Optional<String> branch, long version)
    {
        if (!allowed(branch, version) || table.manifestLocation(branch, version).isEmpty()) {
            throw SharingException.notFound("Version %s not found".formatted(version));
        }
        return table.snapshot(branch, version);
    }

    public TableSnapshot tag(String requested)
    {
        String name = Names.ref(requested);
        TagRef tag = allowedTags().stream()
                .filter(candidate -> candidate.name().toLowerCase(Locale.ROOT).equals(name))
                .findFirst()
                .orElseThrow(() -> SharingException.notFound("Tag not found"));
        return version(RefResolver.branch(tag.branch()), tag.version());
    }

    /**
     * The latest allowed version committed at or before the instant; commit times grow with versions.
     */
    public TableSnapshot atOrBefore(Optional<String> branch, Instant instant)
    {
        TableSnapshot found = null;
        for (long version : allowedVersions(branch)) {
            TableSnapshot snapshot = table.snapshot(branch, version);
            if (RefResolver.commitTime(snapshot).isAfter(instant)) {
                break;
            }
            found = snapshot;
        }
        if (found == null) {
            throw SharingException.notFound("No shared version was committed at or before " + instant);
        }
        return found;
    }

    public TableSnapshot atOrAfter(Optional<String> branch, Instant instant)
    {
        for (long version : allowedVersions(branch)) {
            TableSnapshot snapshot = table.snapshot(branch, version);
            if (!RefResolver.commitTime(snapshot).isBefore(instant)) {
                return snapshot;
            }
        }
        throw SharingException.notFound("No shared version was committed at or after " + instant);
    }

    /**
     * Tags the share exposes: all tags pointing to allowed versions without {@code refs}, the listed ones with.
     */
    public List<TagRef> allowedTags()
    {
        List<TagRef> tags = table.refs().listTags();
        if (config.refs().isEmpty()) {
            return tags.stream()
                    .filter(tag -> tag.version() >= config.startVersion().orElse(1))
                    .collect(ImmutableList.toImmutableList());
        }
        Set<String> refs = config.refs().get();
        return tags.stream()
                .filter(tag -> refs.contains(tag.name().toLowerCase(Locale.ROOT)))
                .collect(ImmutableList.toImmutableList());
    }

    public List<BranchRef> allowedBranches()
    {
        return table.refs().listBranches().stream()
                .filter(branch -> branchAllowed(Optional.of(branch.name())))
                .collect(ImmutableList.toImmutableList());
    }
}
