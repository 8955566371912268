package io.lancetrino.metadata.refs;

import com.google.common.collect.ImmutableMap;
import io.lancetrino.metadata.LanceTable;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;

import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.util.Optional;

import static io.lancetrino.metadata.LanceErrorKind.ALREADY_EXISTS;
import static io.lancetrino.metadata.LanceErrorKind.INVALID_REF;
import static io.lancetrino.metadata.LanceErrorKind.REF_NOT_FOUND;
import static java.util.Objects.requireNonNull;

/**
 * Creates, moves and drops tags as Lance does: {@code _refs/tags/<name>.json} at the table root, created only if
 * absent, moved by rewriting it with its creation time kept. Tags make no new table version.
 */
public final class Tags
{
    private final LanceTable table;
    private final Clock clock;

    public Tags(LanceTable table, Clock clock)
    {
        this.table = requireNonNull(table, "table is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public TagRef create(String name, TableSnapshot target)
    {
        checkName(name);
        TagRef tag = new TagRef(name, target.branch(), target.version(), Optional.of(clock.instant()), Optional.of(clock.instant()), table.manifestSize(target), ImmutableMap.of());
        try {
            table.refs().createTag(tag);
        }
        catch (FileAlreadyExistsException e) {
            TagRef existing = table.refs().getTag(name).orElse(tag);
            throw new LanceTableException(ALREADY_EXISTS, "Tag '%s' already exists in table %s (it points to %s)"
                    .formatted(name, table.displayName(), TableSnapshot.describe(existing.branch(), existing.version())), e);
        }
        return tag;
    }

    public TagRef move(String name, TableSnapshot target)
    {
        TagRef existing = get(name);
        TagRef moved = new TagRef(name, target.branch(), target.version(), existing.createdAt(), Optional.of(clock.instant()), table.manifestSize(target), existing.metadata());
        table.refs().replaceTag(moved);
        return moved;
    }

    public void drop(String name)
    {
        get(name);
        table.refs().deleteTag(name);
    }

    private TagRef get(String name)
    {
        checkName(name);
        return table.refs().getTag(name)
                .orElseThrow(() -> new LanceTableException(REF_NOT_FOUND, "Table %s has no tag '%s'".formatted(table.displayName(), name)));
    }

    private void checkName(String name)
    {
        if (!RefNames.isValidTag(name)) {
            throw new LanceTableException(INVALID_REF, "Invalid tag name '%s' for table %s: a tag name is letters, digits, '.', '-' and '_', not starting or ending with '.', without '..' and not ending in '.lock'"
                    .formatted(name, table.displayName()));
        }
    }
}
