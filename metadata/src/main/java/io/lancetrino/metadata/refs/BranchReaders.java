package io.lancetrino.metadata.refs;

import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.proto.BasePath;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds whether main or another branch reads files from a branch's directory, which happens once the branch was
 * merged or fast-forwarded into them: their manifests then carry a base path at the branch's location.
 */
final class BranchReaders
{
    private BranchReaders() {}

    static boolean readsFrom(LanceTable table, String location, String branch)
    {
        List<Optional<String>> others = new ArrayList<>();
        others.add(Optional.empty());
        table.refs().listBranches().stream()
                .map(BranchRef::name)
                .filter(name -> !name.equals(branch))
                .forEach(name -> others.add(Optional.of(name)));
        for (Optional<String> other : others) {
            for (long version : table.listVersions(other)) {
                for (BasePath base : table.snapshot(other, version).manifest().getBasePathsList()) {
                    if (base.getPath().equals(location)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
