package io.lancetrino.metadata.refs;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.proto.Manifest;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import static io.lancetrino.metadata.LanceErrorKind.AMBIGUOUS_REF;
import static io.lancetrino.metadata.LanceErrorKind.INVALID_REF;
import static io.lancetrino.metadata.LanceErrorKind.REF_NOT_FOUND;
import static io.lancetrino.metadata.LanceErrorKind.VERSION_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * Turns what a query names ({@code 3}, {@code 'gold'}, {@code 'dev'}, {@code 'dev@5'}, {@code 'tag:gold'},
 * {@code 'branch:dev'}, a timestamp) into one version of one branch.
 */
public final class RefResolver
{
    public static final String MAIN = "main";
    private static final String TAG_PREFIX = "tag:";
    private static final String BRANCH_PREFIX = "branch:";

    private final LanceTable table;

    public RefResolver(LanceTable table)
    {
        this.table = requireNonNull(table, "table is null");
    }

    public TableSnapshot latest(Optional<String> branch)
    {
        OptionalLong latest = table.latestVersion(branch);
        if (latest.isEmpty()) {
            if (branch.isPresent()) {
                throw new LanceTableException(REF_NOT_FOUND, "Branch '%s' of table %s has no versions".formatted(branch.get(), table.displayName()));
            }
            throw new LanceTableException(VERSION_NOT_FOUND, "Table %s has no versions".formatted(table.displayName()));
        }
        return table.snapshot(branch, latest.getAsLong());
    }

    public TableSnapshot mainVersion(long version)
    {
        if (version < 1 || table.manifestLocation(Optional.empty(), version).isEmpty()) {
            throw new LanceTableException(VERSION_NOT_FOUND, "Table %s has no version %s on main; versions are %s"
                    .formatted(table.displayName(), version, describeVersions(table.listVersions(Optional.empty()))));
        }
        return table.snapshot(Optional.empty(), version);
    }

    /**
     * The head of a branch, for writes through {@code t @ branch}: the name is always a branch here.
     */
    public TableSnapshot branchHead(String branch)
    {
        return latest(checkedBranch(branch));
    }

    public TableSnapshot resolve(String spec)
    {
        if (spec.startsWith(TAG_PREFIX)) {
            return tag(spec.substring(TAG_PREFIX.length()));
        }
        if (spec.startsWith(BRANCH_PREFIX)) {
            return branchSpec(spec.substring(BRANCH_PREFIX.length()));
        }
        if (spec.contains("@")) {
            return branchSpec(spec);
        }
        if (spec.equals(MAIN)) {
            return latest(Optional.empty());
        }
        Optional<TagRef> tag = table.refs().getTag(spec);
        Optional<BranchRef> branch = table.refs().getBranch(spec);
        if (tag.isPresent() && branch.isPresent()) {
            throw new LanceTableException(AMBIGUOUS_REF, "'%s' is both a tag (%s) and a branch of table %s; use 'tag:%s' or 'branch:%s'"
                    .formatted(spec, TableSnapshot.describe(tag.get().branch(), tag.get().version()), table.displayName(), spec, spec));
        }
        if (tag.isPresent()) {
            return tagSnapshot(tag.get());
        }
        if (branch.isPresent()) {
            return latest(Optional.of(spec));
        }
        throw notFound("tag or branch", spec);
    }

    /**
     * The latest version of main committed at or before the instant. Commit times grow with version numbers, so the
     * search reads only a logarithmic number of manifests.
     */
    public TableSnapshot atOrBefore(Instant instant)
    {
        List<Long> versions = table.listVersions(Optional.empty());
        int low = 0;
        int high = versions.size() - 1;
        TableSnapshot found = null;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            TableSnapshot snapshot = table.snapshot(Optional.empty(), versions.get(middle));
            if (!commitTime(snapshot).isAfter(instant)) {
                found = snapshot;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        if (found == null) {
            String oldest = versions.isEmpty() ? "" : "; its oldest version %s was committed at %s"
                    .formatted(versions.getFirst(), commitTime(table.snapshot(Optional.empty(), versions.getFirst())));
            throw new LanceTableException(VERSION_NOT_FOUND, "Table %s has no version committed at or before %s%s".formatted(table.displayName(), instant, oldest));
        }
        return found;
    }

    /**
     * A branch as the table layer addresses it: empty for main, whether main is named or not.
     */
    public static Optional<String> branch(Optional<String> name)
    {
        return name.filter(branch -> !branch.equals(MAIN));
    }

    public static Optional<String> branch(String name)
    {
        return branch(Optional.of(name));
    }

    public static Instant commitTime(TableSnapshot snapshot)
    {
        return commitTime(snapshot.manifest());
    }

    public static Instant commitTime(Manifest manifest)
    {
        var timestamp = manifest.getTimestamp();
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private TableSnapshot tag(String name)
    {
        return tagSnapshot(table.refs().getTag(name).orElseThrow(() -> notFound("tag", name)));
    }

    private TableSnapshot tagSnapshot(TagRef tag)
    {
        Optional<String> branch = branch(tag.branch());
        if (table.manifestLocation(branch, tag.version()).isEmpty()) {
            throw new LanceTableException(VERSION_NOT_FOUND, "Tag '%s' of table %s points to %s, which no longer exists"
                    .formatted(tag.name(), table.displayName(), TableSnapshot.describe(branch, tag.version())));
        }
        return table.snapshot(branch, tag.version());
    }

    private TableSnapshot branchSpec(String spec)
    {
        int at = spec.lastIndexOf('@');
        if (at < 0) {
            return latest(checkedBranch(spec));
        }
        String name = spec.substring(0, at);
        long version;
        try {
            String digits = spec.substring(at + 1);
            if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
                throw new NumberFormatException(digits);
            }
            version = Long.parseLong(digits);
        }
        catch (NumberFormatException e) {
            throw new LanceTableException(INVALID_REF, "Invalid version reference '%s' for table %s: expected '<branch>@<version number>'".formatted(spec, table.displayName()));
        }
        Optional<String> branch = checkedBranch(name);
        if (table.manifestLocation(branch, version).isEmpty()) {
            throw new LanceTableException(VERSION_NOT_FOUND, "Table %s has no %s; versions are %s"
                    .formatted(table.displayName(), TableSnapshot.describe(branch, version), describeVersions(table.listVersions(branch))));
        }
        return table.snapshot(branch, version);
    }

    private Optional<String> checkedBranch(String name)
    {
        if (name.equals(MAIN)) {
            return Optional.empty();
        }
        if (table.refs().getBranch(name).isEmpty()) {
            throw notFound("branch", name);
        }
        return Optional.of(name);
    }

    private LanceTableException notFound(String what, String name)
    {
        String tags = table.refs().listTags().stream().map(TagRef::name).map(RefResolver::quote).collect(Collectors.joining(", "));
        String branches = table.refs().listBranches().stream().map(BranchRef::name).map(RefResolver::quote).collect(Collectors.joining(", "));
        return new LanceTableException(REF_NOT_FOUND, "Table %s has no %s '%s'. Tags: [%s]. Branches: ['main'%s]"
                .formatted(table.displayName(), what, name, tags, branches.isEmpty() ? "" : ", " + branches));
    }

    private static String quote(String name)
    {
        return "'" + name + "'";
    }

    private static String describeVersions(List<Long> versions)
    {
        if (versions.isEmpty()) {
            return "none";
        }
        if (versions.size() == versions.getLast() - versions.getFirst() + 1) {
            return versions.getFirst() + " to " + versions.getLast();
        }
        return versions.size() <= 20 ? versions.toString() : versions.size() + " versions from " + versions.getFirst() + " to " + versions.getLast();
    }
}
