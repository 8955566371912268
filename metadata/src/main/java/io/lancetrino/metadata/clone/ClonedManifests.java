package io.lancetrino.metadata.clone;

import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.IndexMetadata;
import io.lancetrino.metadata.proto.IndexSection;
import io.lancetrino.metadata.proto.Manifest;

import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The first manifest of a branch or clone, built from the manifest it starts from, as Lance builds it: the same
 * version number, one new dataset-root base path at the source, and every file that had no base pointed at it.
 */
public final class ClonedManifests
{
    private ClonedManifests() {}

    /**
     * @param baseName the branch the source version belongs to (empty for main), as Lance names the new base
     * @param sourceLocation the source dataset's location, written exactly as Lance writes it
     * @param branch set for a branch, empty for a clone
     */
    public static Manifest shallow(Manifest source, Optional<String> baseName, String sourceLocation, Optional<String> branch)
    {
        int baseId = unusedBaseId(source.getBasePathsList().stream().map(BasePath::getId).toList());
        BasePath.Builder base = BasePath.newBuilder().setId(baseId).setIsDatasetRoot(true).setPath(sourceLocation);
        baseName.ifPresent(base::setName);
        Manifest.Builder manifest = source.toBuilder()
                .addBasePaths(base)
                .clearTag()
                .clearTransactionSection()
                .clearFragments();
        branch.ifPresentOrElse(manifest::setBranch, manifest::clearBranch);
        for (DataFragment fragment : source.getFragmentsList()) {
            manifest.addFragments(pointAt(fragment, baseId));
        }
        return manifest.build();
    }

    /**
     * Indices of a shallow copy: those without a base are read from the source (an index that has a base keeps it,
     * unlike Lance 7.0 which repoints every index, upstream bug #7840).
     */
    public static Optional<IndexSection> shallowIndices(Optional<IndexSection> source, Manifest cloned)
    {
        int baseId = newestBaseId(cloned);
        return source.map(section -> {
            IndexSection.Builder indices = section.toBuilder().clearIndices();
            for (IndexMetadata index : section.getIndicesList()) {
                indices.addIndices(index.hasBaseId() ? index : index.toBuilder().setBaseId(baseId).build());
            }
            return indices.build();
        });
    }

    /**
     * A self-contained copy: no base paths, every file read from the clone's own directories.
     */
    public static Manifest deep(Manifest source)
    {
        Manifest.Builder manifest = source.toBuilder()
                .clearBasePaths()
                .clearBranch()
                .clearTag()
                .clearTransactionSection()
                .clearFragments();
        for (DataFragment fragment : source.getFragmentsList()) {
            DataFragment.Builder copy = fragment.toBuilder().clearFiles();
            for (DataFile file : fragment.getFilesList()) {
                copy.addFiles(file.toBuilder().clearBaseId());
            }
            if (fragment.hasDeletionFile()) {
                copy.setDeletionFile(fragment.getDeletionFile().toBuilder().clearBaseId());
            }
            manifest.addFragments(copy);
        }
        return manifest.build();
    }

    public static Optional<IndexSection> deepIndices(Optional<IndexSection> source)
    {
        return source.map(section -> {
            IndexSection.Builder indices = section.toBuilder().clearIndices();
            section.getIndicesList().forEach(index -> indices.addIndices(index.toBuilder().clearBaseId()));
            return indices.build();
        });
    }

    /**
     * The smallest id no base path uses, as Lance picks it.
     */
    public static int unusedBaseId(Collection<Integer> used)
    {
        Set<Integer> ids = new HashSet<>(used);
        int id = 0;
        while (ids.contains(id)) {
            id++;
        }
        return id;
    }

    private static int newestBaseId(Manifest cloned)
    {
        return cloned.getBasePaths(cloned.getBasePathsCount() - 1).getId();
    }

    private static DataFragment pointAt(DataFragment fragment, int baseId)
    {
        DataFragment.Builder copy = fragment.toBuilder().clearFiles();
        for (DataFile file : fragment.getFilesList()) {
            copy.addFiles(file.hasBaseId() ? file : file.toBuilder().setBaseId(baseId).build());
        }
        if (fragment.hasDeletionFile() && !fragment.getDeletionFile().hasBaseId()) {
            copy.setDeletionFile(fragment.getDeletionFile().toBuilder().setBaseId(baseId));
        }
        return copy.build();
    }
}
