package io.lancetrino.metadata.commit;

import io.lancetrino.metadata.LanceErrorKind;
import io.lancetrino.metadata.LanceTableException;
import io.lancetrino.metadata.TableSnapshot;
import io.lancetrino.metadata.Transactions;
import io.lancetrino.metadata.keys.InsertedKeys;
import io.lancetrino.metadata.keys.InsertedKeysFilter;
import io.lancetrino.metadata.proto.Transaction;

import java.util.List;
import java.util.Optional;

/**
 * lance-core's check of an upsert into a table with a primary key against what committed since it read: two changes
 * that may have inserted the same key cannot both commit, so a key is never inserted twice by concurrent upserts.
 * A change that recorded no inserted keys (a DELETE, an UPDATE) is checked as before; a plain append, which records
 * none, may hold any key.
 */
final class InsertedKeyConflicts
{
    private InsertedKeyConflicts() {}

    static void check(String table, Transaction mine, Optional<InsertedKeys> keys, TableSnapshot committed, Transaction theirs)
    {
        if (!mine.hasUpdate() || !mine.getUpdate().hasInsertedRows()) {
            return;
        }
        Transaction.KeyExistenceFilter ours = mine.getUpdate().getInsertedRows();
        String what = "%s (%s)".formatted(committed.describe(), Transactions.operationName(theirs));
        if (theirs.hasAppend()) {
            throw conflict("Table %s: %s added rows while this statement inserted keys of the primary key; they may hold the same keys, so nothing was committed; re-run the statement"
                    .formatted(table, what));
        }
        if (!theirs.hasUpdate() || !theirs.getUpdate().hasInsertedRows()) {
            return;
        }
        Transaction.KeyExistenceFilter their = theirs.getUpdate().getInsertedRows();
        if (!their.getFieldIdsList().equals(ours.getFieldIdsList()) || !their.hasBloom()) {
            throw conflict("Table %s: %s inserted keys this connector cannot compare with the keys this statement inserts (another key, or another filter); re-run the statement"
                    .formatted(table, what));
        }
        InsertedKeysFilter theirFilter = InsertedKeysFilter.fromBytes(their.getBloom().getBitmap().toByteArray());
        boolean overlap = keys.map(inserted -> inserted.mayOverlap(theirFilter))
                .orElseGet(() -> InsertedKeysFilter.fromBytes(ours.getBloom().getBitmap().toByteArray()).intersects(theirFilter));
        if (overlap) {
            List<String> named = keys.map(inserted -> inserted.namesIn(theirFilter)).orElse(List.of());
            String which = named.isEmpty() ? "keys" : "keys such as " + String.join(", ", named.subList(0, Math.min(5, named.size())));
            throw conflict("Table %s: %s inserted %s, which this statement inserts too; nothing was committed; re-run the statement, which then finds them"
                    .formatted(table, what, which));
        }
    }

    private static LanceTableException conflict(String message)
    {
        return new LanceTableException(LanceErrorKind.DUPLICATE_KEY, message);
    }
}
