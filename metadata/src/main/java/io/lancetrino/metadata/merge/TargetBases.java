package io.lancetrino.metadata.merge;

import com.google.common.collect.ImmutableList;
import io.lancetrino.metadata.FilePaths;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.clone.ClonedManifests;
import io.lancetrino.metadata.proto.BasePath;
import io.lancetrino.metadata.proto.DataFile;
import io.lancetrino.metadata.proto.DataFragment;
import io.lancetrino.metadata.proto.DeletionFile;
import io.lancetrino.metadata.proto.Manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntConsumer;

import static io.lancetrino.metadata.LanceErrorKind.COMMIT_CONFLICT;

/**
 * Points fragments of the merge source at their files from the target: a file in the target's own directory needs no
 * base; any other directory gets a base path in the target (an existing one with the same location, or a new one).
 * Nothing is copied.
 */
final class TargetBases
{
    private final String targetLocation;
    private final List<BasePath> bases;
    private final List<BasePath> added = new ArrayList<>();

    TargetBases(TableSnapshot target)
    {
        this.targetLocation = target.datasetLocation();
        this.bases = new ArrayList<>(target.manifest().getBasePathsList());
    }

    List<BasePath> added()
    {
        return ImmutableList.copyOf(added);
    }

    DataFragment repoint(TableSnapshot source, DataFragment fragment, Map<Integer, Integer> fieldIds)
    {
        DataFragment.Builder copy = fragment.toBuilder().clearFiles();
        for (DataFile file : fragment.getFilesList()) {
            DataFile.Builder repointed = file.toBuilder();
            setBase(idFor(source, fragment, file.hasBaseId() ? OptionalInt.of(file.getBaseId()) : OptionalInt.empty()), repointed::setBaseId, repointed::clearBaseId);
            if (!fieldIds.isEmpty()) {
                repointed.clearFields();
                file.getFieldsList().forEach(id -> repointed.addFields(fieldIds.getOrDefault(id, id)));
            }
            copy.addFiles(repointed);
        }
        if (fragment.hasDeletionFile()) {
            DeletionFile deletion = fragment.getDeletionFile();
            DeletionFile.Builder repointed = deletion.toBuilder();
            setBase(idFor(source, fragment, deletion.hasBaseId() ? OptionalInt.of(deletion.getBaseId()) : OptionalInt.empty()), repointed::setBaseId, repointed::clearBaseId);
            copy.setDeletionFile(repointed);
        }
        return copy.build();
    }

    /**
     * Adds the new base paths to the manifest the merge commits on; a concurrent commit that took one of their ids
     * for another location makes the merge fail cleanly.
     */
    Manifest.Builder addTo(Manifest.Builder manifest)
    {
        for (BasePath base : added) {
            Optional<BasePath> existing = manifest.getBasePathsList().stream().filter(other -> other.getId() == base.getId()).findFirst();
            if (existing.isEmpty()) {
                manifest.addBasePaths(base);
            }
            else if (!existing.get().getPath().equals(base.getPath())) {
                throw new LanceTableException(COMMIT_CONFLICT, "Base path %s was given to %s by a concurrent commit; re-run the merge".formatted(base.getId(), existing.get().getPath()));
            }
        }
        return manifest;
    }

    private OptionalInt idFor(TableSnapshot source, DataFragment fragment, OptionalInt sourceBaseId)
    {
        String path;
        boolean datasetRoot;
        Optional<String> name;
        if (sourceBaseId.isEmpty()) {
            path = source.datasetLocation();
            datasetRoot = true;
            name = source.branch();
        }
        else {
            BasePath base = FilePaths.basePath(source, fragment, sourceBaseId.getAsInt(), "");
            path = base.getPath();
            datasetRoot = base.getIsDatasetRoot();
            name = base.hasName() ? Optional.of(base.getName()) : Optional.empty();
        }
        if (datasetRoot && path.equals(targetLocation)) {
            return OptionalInt.empty();
        }
        for (BasePath base : bases) {
            if (base.getPath().equals(path) && base.getIsDatasetRoot() == datasetRoot) {
                return OptionalInt.of(base.getId());
            }
        }
        int id = ClonedManifests.unusedBaseId(bases.stream().map(BasePath::getId).toList());
        BasePath.Builder base = BasePath.newBuilder().setId(id).setPath(path).setIsDatasetRoot(datasetRoot);
        name.ifPresent(base::setName);
        bases.add(base.build());
        added.add(base.build());
        return OptionalInt.of(id);
    }

    private static void setBase(OptionalInt id, IntConsumer set, Runnable clear)
    {
        if (id.isPresent()) {
            set.accept(id.getAsInt());
        }
        else {
            clear.run();
        }
    }
}
