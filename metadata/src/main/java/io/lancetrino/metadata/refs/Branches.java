package io.lancetrino.metadata.refs;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.clone.ClonePin;
import io.lancetrino.metadata.clone.ClonePins;
import io.lancetrino.metadata.clone.ClonedManifests;
import io.lancetrino.metadata.commit.TableCommitter;
import io.lancetrino.metadata.fs.TableFileSystem;
import io.lancetrino.metadata.proto.Manifest;
import io.lancetrino.metadata.proto.Transaction;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static io.lancetrino.metadata.LanceErrorKind.ALREADY_EXISTS;
import static io.lancetrino.metadata.LanceErrorKind.FILESYSTEM_ERROR;
import static io.lancetrino.metadata.LanceErrorKind.INVALID_REF;
import static io.lancetrino.metadata.LanceErrorKind.REF_IN_USE;
import static io.lancetrino.metadata.LanceErrorKind.REF_NOT_FOUND;
import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

/**
 * Creates and drops branches in Lance's own layout, so pylance, the Java SDK and lance-spark see them as their own:
 * the branch's first manifest under {@code tree/<name>/}, then {@code _refs/branches/<name>.json} written only if
 * absent. The ref file is what makes a branch exist; a manifest without one is a leftover of a failed create.
 */
public final class Branches
{
    /** What a branch directory holds of its own; deeper directories may be other branches ({@code a} and {@code a/b}) */
    public static final List<String> DATASET_DIRECTORIES = ImmutableList.of("_versions", "_transactions", "data", "_deletions", "_indices");

    private final LanceTable table;
    private final TableCommitter committer;
    private final Clock clock;

    public Branches(LanceTable table, TableCommitter committer, Clock clock)
    {
        this.table = requireNonNull(table, "table is null");
        this.committer = requireNonNull(committer, "committer is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public static void checkName(LanceTable table, String name)
    {
        if (!RefNames.isValidBranch(name)) {
            throw new LanceTableException(INVALID_REF, ("Invalid branch name '%s' for table %s: a branch name is one or more '/'-separated segments of letters, digits, "
                    + "'.', '-' and '_', without '..', not ending in '.lock', and not 'main'").formatted(name, table.displayName()));
        }
    }

    /**
     * Makes branch {@code name} starting at {@code source}, which may be any version of main or of another branch.
     */
    public BranchRef create(String name, TableSnapshot source)
    {
        checkName(table, name);
        RefStore refs = table.refs();
        if (refs.getBranch(name).isPresent()) {
            throw new LanceTableException(ALREADY_EXISTS, "Branch '%s' already exists in table %s".formatted(name, table.displayName()));
        }
        // a failed create may have left a manifest without a ref: it is invisible, and a retry replaces it; data
        // files stay, as merges may have made other branches read files of an earlier branch of this name
        String location = table.datasetLocation(Optional.of(name));
        deleteDirectories(location, List.of("_versions", "_transactions"));

        Optional<String> sourceBranch = source.branch();
        String sourceLocation = source.datasetLocation();
        Manifest manifest = ClonedManifests.shallow(source.manifest(), sourceBranch, sourceLocation, Optional.of(name));
        Transaction.Clone.Builder clone = Transaction.Clone.newBuilder()
                .setIsShallow(true)
                .setRefVersion(source.version())
                .setRefPath(sourceLocation)
                .setBranchName(name);
        sourceBranch.ifPresent(clone::setRefName);
        Transaction transaction = Transaction.newBuilder()
                .setReadVersion(source.version())
                .setUuid(UUID.randomUUID().toString())
                .setClone(clone)
                .build();
        committer.createDataset(table.fileSystem(), location, manifest, ClonedManifests.shallowIndices(source.manifestFile().indexSection(), manifest), transaction);

        List<BranchRef.VersionMapping> lineage = ImmutableList.<BranchRef.VersionMapping>builder()
                .addAll(sourceBranch.flatMap(refs::getBranch).map(BranchRef::lineage).orElse(ImmutableList.of()))
                .add(new BranchRef.VersionMapping(source.version(), UUID.randomUUID().toString().replace("-", "")))
                .build();
        BranchRef branch = new BranchRef(name, sourceBranch, source.version(), Optional.of(clock.instant()), lineage, table.manifestSize(source), ImmutableMap.of());
        try {
            refs.createBranch(branch);
        }
        catch (FileAlreadyExistsException e) {
            throw new LanceTableException(ALREADY_EXISTS, "Branch '%s' of table %s was created by another writer at the same time".formatted(name, table.displayName()), e);
        }
        return branch;
    }

    /**
     * Drops a branch's ref and history and returns its directory, whose data files the caller sweeps (some may be
     * read by other branches after a merge). Refused while a branch was made from it, a tag points into it or a
     * clone was made from it.
     */
    public String drop(String name)
    {
        RefStore refs = table.refs();
        BranchRef branch = refs.getBranch(name).orElseThrow(() -> new LanceTableException(REF_NOT_FOUND, "Table %s has no branch '%s'".formatted(table.displayName(), name)));
        List<String> children = refs.listBranches().stream()
                .filter(other -> !other.name().equals(name))
                .filter(other -> other.parentBranch().equals(Optional.of(name)) || branch.isAncestorOf(other))
                .map(BranchRef::name)
                .toList();
        if (!children.isEmpty()) {
            throw new LanceTableException(REF_IN_USE, "Cannot drop branch '%s' of table %s: branches %s were made from it; drop them first"
                    .formatted(name, table.displayName(), quoted(children)));
        }
        List<String> tags = refs.listTags().stream()
                .filter(tag -> tag.branch().equals(Optional.of(name)))
                .map(TagRef::name)
                .toList();
        if (!tags.isEmpty()) {
            throw new LanceTableException(REF_IN_USE, "Cannot drop branch '%s' of table %s: tags %s point into it; drop or move them first"
                    .formatted(name, table.displayName(), quoted(tags)));
        }
        List<String> clones = new ClonePins(table.fileSystem(), table.root()).list().stream()
                .filter(pin -> pin.sourceBranch().equals(Optional.of(name)))
                .map(ClonePin::cloneLocation)
                .toList();
        if (!clones.isEmpty()) {
            throw new LanceTableException(REF_IN_USE, "Cannot drop branch '%s' of table %s: shallow clones %s were made from it and read its files; drop them first"
                    .formatted(name, table.displayName(), quoted(clones)));
        }
        String location = table.datasetLocation(Optional.of(name));
        refs.deleteBranch(name);
        deleteDirectories(location, List.of("_versions", "_transactions"));
        return location;
    }

    private void deleteDirectories(String location, List<String> names)
    {
        TableFileSystem fileSystem = table.fileSystem();
        try {
            for (String directory : names) {
                fileSystem.deleteDirectory(TableFileSystem.join(location, directory));
            }
            if (fileSystem.listFiles(location).isEmpty() && fileSystem.listDirectories(location).isEmpty()) {
                fileSystem.deleteDirectory(location);
            }
        }
        catch (IOException e) {
            throw new LanceTableException(FILESYSTEM_ERROR, "Cannot delete the files of branch directory %s of table %s: %s".formatted(location, table.displayName(), e.getMessage()), e);
        }
    }

    static String quoted(List<String> names)
    {
        return names.stream().map(name -> "'" + name + "'").collect(joining(", ", "[", "]"));
    }
}
